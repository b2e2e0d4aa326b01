import ArgumentParser
import GatewayHTTP
import Glibc

/// `sigil tls`: TLS helpers. `sigil tls self-signed --host NAME` writes a fresh ECDSA P-256 key
/// (mode 0600) and a self-signed certificate for NAME, for trying `sigil serve --tls-cert/--tls-key`.
struct TLSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tls",
        abstract: "TLS helpers for serving the gateway over HTTPS.",
        subcommands: [SelfSigned.self])

    struct SelfSigned: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "self-signed",
            abstract: "Write a new P-256 key and a self-signed certificate for one host name or IP address.",
            discussion: """
                Writes <out-dir>/<host>.cert.pem and <out-dir>/<host>.key.pem (mode 0600), valid for \
                365 days, with subjectAltName DNS:<host> (IP:<host> for an address). Clients must be told \
                to trust this exact certificate (curl --cacert <host>.cert.pem). For trying TLS out only: \
                use a certificate from a real CA for anything else.

                Why TLS: a dapp served over https may call http://127.0.0.1 (a potentially trustworthy \
                origin), but it can reach a gateway on another machine only over https (mixed content \
                is blocked), so a networked gateway needs --tls-cert/--tls-key.
                """)

        @Option(help: "Host name or IP address the certificate is for (e.g. localhost, sigil.lan, 192.168.1.5).")
        var host: String

        @Option(name: .customLong("out-dir"), help: ArgumentHelp("Directory to write the files to.", valueName: "dir"))
        var outDir: String = "."

        @Option(help: "Validity in days (1...825).")
        var days: Int = 365

        @Flag(help: "Overwrite existing files.")
        var force = false

        func run() throws {
            let generated = try SelfSignedCertificate.generate(host: host, days: days)
            let base = outDir.hasSuffix("/") ? outDir : outDir + "/"
            let certificatePath = base + host + ".cert.pem"
            let keyPath = base + host + ".key.pem"
            try Self.write(generated.privateKeyPEM, to: keyPath, mode: 0o600, force: force)
            try Self.write(generated.certificatePEM, to: certificatePath, mode: 0o644, force: force)
            print("certificate: \(certificatePath)")
            print("private key: \(keyPath) (mode 0600; keep it secret)")
            print("serve with:  sigil serve --tls-cert \(certificatePath) --tls-key \(keyPath)")
        }

        /// Writes a file with exactly `mode` (no umask race: created with it, then fchmod), refusing
        /// symlinks and, without --force, existing files.
        static func write(_ bytes: [UInt8], to path: String, mode: mode_t, force: Bool) throws {
            var flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC
            flags |= force ? O_TRUNC : O_EXCL
            let fd = open(path, flags, mode)
            if fd < 0 {
                let e = errno
                if e == EEXIST { throw ValidationError("\(path) exists; pass --force to overwrite it") }
                throw ValidationError("cannot write \(path): \(String(cString: strerror(e)))")
            }
            defer { close(fd) }
            guard fchmod(fd, mode) == 0 else { throw ValidationError("cannot set the mode of \(path)") }
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw ValidationError("cannot write \(path): \(String(cString: strerror(errno)))") }
                offset += n
            }
        }
    }
}
