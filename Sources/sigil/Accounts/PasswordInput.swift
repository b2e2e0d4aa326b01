import ArgumentParser
import Foundation
import Journal
import Keystore
import Primitives
import StateStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a password comes from: `--password-file PATH` (services and scripts), or the controlling
/// terminal with echo off (termios). A password is never taken from the command line or the
/// environment, so it cannot leak through `ps`, shell history or `/proc/<pid>/environ`.
struct PasswordOption: ParsableArguments {
    @Option(
        name: .customLong("password-file"),
        help: ArgumentHelp(
            "Read the password from this file (first line; one trailing newline is removed).",
            valueName: "path"))
    var passwordFile: String?

    /// Reads the password, prompting on the terminal when no file is given.
    /// - Parameter confirm: ask twice on a terminal (for new passwords).
    func read(prompt: String, confirm: Bool = false) throws -> Passphrase {
        if let passwordFile { return try PasswordInput.fromFile(passwordFile) }
        return try PasswordInput.fromTerminal(prompt: prompt, confirm: confirm)
    }
}

enum PasswordInput {
    static let maxBytes = 4096

    /// The first line of `path`. Warns when the file is readable by others.
    static func fromFile(_ path: String) throws -> Passphrase {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CLIFailure("cannot read password file \(path)")
        }
        defer { try? handle.close() }
        var st = stat()
        if stat(path, &st) == 0, st.st_mode & 0o077 != 0 {
            warn("password file \(path) is readable by other users (chmod 600 it)")
        }
        var bytes = [UInt8](handle.readData(ofLength: maxBytes + 2))
        defer { for i in bytes.indices { bytes[i] = 0 } }
        if let newline = bytes.firstIndex(of: 0x0a) { bytes.removeSubrange(newline...) }
        if bytes.last == 0x0d { bytes.removeLast() }
        guard !bytes.isEmpty else { throw CLIFailure("password file \(path) is empty") }
        guard bytes.count <= maxBytes else {
            throw CLIFailure("password file \(path): first line over \(maxBytes) bytes")
        }
        return Passphrase(bytes: bytes)
    }

    /// Reads a line from `/dev/tty` with echo off. Ctrl-C restores the terminal before exiting.
    static func fromTerminal(prompt: String, confirm: Bool) throws -> Passphrase {
        let first = try readHidden(prompt: prompt)
        guard !first.isEmpty else { throw CLIFailure("empty password") }
        if confirm {
            let second = try readHidden(prompt: "Repeat the password: ")
            guard first == second else { throw CLIFailure("the two passwords differ") }
        }
        var copy = first
        defer { for i in copy.indices { copy[i] = 0 } }
        return Passphrase(bytes: copy)
    }

    /// A line read from the terminal with echo off (for secret URIs typed by hand).
    static func hiddenLine(prompt: String) throws -> String {
        var bytes = try readHidden(prompt: prompt)
        defer { for i in bytes.indices { bytes[i] = 0 } }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }

    /// Asks a yes/no question on the terminal (echo on). False when there is no terminal.
    static func confirm(_ question: String) -> Bool {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        writeAll(fd, question)
        let answer = String(decoding: readLine(fd), as: UTF8.self).trimmingCharacters(in: .whitespaces).lowercased()
        return answer == "y" || answer == "yes"
    }

    private static func readHidden(prompt: String) throws -> [UInt8] {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            throw CLIFailure("no terminal to ask for the password: use --password-file PATH")
        }
        defer { close(fd) }
        writeAll(fd, prompt)
        var saved = termios()
        let isTerminal = tcgetattr(fd, &saved) == 0
        if isTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ICANON)
            TerminalRestore.arm(fd: fd, saved: saved)
            _ = tcsetattr(fd, TCSAFLUSH, &quiet)
        }
        let line = readLine(fd)
        if isTerminal {
            _ = tcsetattr(fd, TCSAFLUSH, &saved)
            TerminalRestore.disarm()
            writeAll(fd, "\n")
        }
        return line
    }

    private static func readLine(_ fd: Int32) -> [UInt8] {
        var out: [UInt8] = []
        var byte: UInt8 = 0
        while out.count <= maxBytes {
            let n = read(fd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 || byte == 0x0a { break }
            out.append(byte)
        }
        if out.last == 0x0d { out.removeLast() }
        return out
    }

    private static func writeAll(_ fd: Int32, _ text: String) {
        _ = text.utf8CString.withUnsafeBytes { write(fd, $0.baseAddress, $0.count - 1) }
    }
}

/// Restores the terminal's echo if the user presses Ctrl-C at a password prompt.
private enum TerminalRestore {
    nonisolated(unsafe) static var fd: Int32 = -1
    nonisolated(unsafe) static var saved = termios()

    static func arm(fd: Int32, saved: termios) {
        Self.saved = saved
        Self.fd = fd
        signal(SIGINT) { _ in
            if TerminalRestore.fd >= 0 { _ = tcsetattr(TerminalRestore.fd, TCSAFLUSH, &TerminalRestore.saved) }
            _exit(130)
        }
    }

    static func disarm() {
        signal(SIGINT, SIG_DFL)
        fd = -1
    }
}

/// A one-line command failure (exit code 1). Messages never contain secrets.
struct CLIFailure: Error, CustomStringConvertible {
    let description: String
    init(_ text: String) { description = text }
    /// A module error as `<code>: <reason>` (the keystore's, the state store's, the journal's).
    init<Code: ErrorCode>(_ error: CodedError<Code>) { description = "\(error.code): \(error.reason)" }

    /// An error of the data directory, the state store or the journal as a one-line failure; any
    /// other error as it is.
    static func storage(_ error: any Error) -> any Error {
        switch error {
        case let error as KeystoreError: CLIFailure(error)
        case let error as StateStoreError: CLIFailure(error)
        case let error as JournalError: CLIFailure(error)
        default: error
        }
    }
}

/// Writes a line to standard error.
func warn(_ text: String) {
    FileHandle.standardError.write(Data(("warning: " + text + "\n").utf8))
}

/// Writes a line to standard error without a prefix.
func note(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
