import ArgumentParser
import Foundation

/// Reads a command-line input file (or standard input for `-`), refusing more than `limit` bytes.
enum InputFile {
    static func read(_ path: String, limit: Int) throws -> [UInt8] {
        let handle: FileHandle
        if path == "-" {
            handle = FileHandle.standardInput
        } else {
            guard let h = FileHandle(forReadingAtPath: path) else { throw ValidationError("cannot read \(path)") }
            handle = h
        }
        defer { if path != "-" { try? handle.close() } }
        let data = try handle.read(upToCount: limit + 1) ?? Data()
        guard data.count <= limit else { throw ValidationError("\(path) is larger than \(limit) bytes") }
        return [UInt8](data)
    }
}
