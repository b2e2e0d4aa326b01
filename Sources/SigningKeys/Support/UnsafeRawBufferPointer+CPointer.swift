import Primitives

extension UnsafeRawBufferPointer {
    /// The start as `UInt8` for C APIs that take non-null pointers. Only used on buffers known to be
    /// non-empty (fixed-size keys and `SecretBytes`, whose storage is never empty); checked.
    @inline(__always) var u8: UnsafePointer<UInt8> {
        guard let base = baseAddress else { preconditionFailure("a C pointer of an empty buffer") }
        return base.assumingMemoryBound(to: UInt8.self)
    }
}

extension UnsafeMutableRawBufferPointer {
    /// See `UnsafeRawBufferPointer.u8`.
    @inline(__always) var u8: UnsafeMutablePointer<UInt8> {
        guard let base = baseAddress else { preconditionFailure("a C pointer of an empty buffer") }
        return base.assumingMemoryBound(to: UInt8.self)
    }
}
