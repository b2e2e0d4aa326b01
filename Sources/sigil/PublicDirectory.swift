import Glibc

/// Finds the directory of files `sigil serve` gives to dapps.
enum PublicDirectory {
    /// `explicit`, else `$SIGIL_PUBLIC_DIR`, else `<exe dir>/../share/sigil/public`, else the nearest
    /// ancestor of the executable holding both `Package.swift` and `public/` (a development build).
    static func locate(explicit: String?) -> String? {
        if let explicit { return explicit }
        if let fromEnvironment = getenv("SIGIL_PUBLIC_DIR").map({ String(cString: $0) }), !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        guard let executable = executablePath() else { return nil }
        var directory = parent(of: executable)
        let installed = directory + "/../share/sigil/public"
        if isDirectory(installed) { return installed }
        while directory != "/" && !directory.isEmpty {
            if isFile(directory + "/Package.swift") && isDirectory(directory + "/public") {
                return directory + "/public"
            }
            directory = parent(of: directory)
        }
        return nil
    }

    private static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        let result = String(path[..<slash])
        return result.isEmpty ? "/" : result
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    private static func isFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}
