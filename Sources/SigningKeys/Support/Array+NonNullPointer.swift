extension Array where Element == UInt8 {
    /// Calls `body` with a non-null pointer even when the array is empty (C APIs reject NULL).
    @inline(__always)
    func withNonNullPointer<R>(_ body: (UnsafePointer<UInt8>, Int) throws -> R) rethrows -> R {
        if isEmpty {
            var zero: UInt8 = 0
            return try body(&zero, 0)
        }
        return try withUnsafeBufferPointer { buffer in
            var zero: UInt8 = 0
            guard let base = buffer.baseAddress else { return try body(&zero, 0) }
            return try body(base, buffer.count)
        }
    }
}
