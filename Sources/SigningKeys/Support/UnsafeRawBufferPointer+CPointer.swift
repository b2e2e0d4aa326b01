import Primitives

extension UnsafeRawBufferPointer {
    /// The start as `UInt8` for C APIs that take non-null pointers. Only used on buffers known to be
    /// non-empty (fixed-size keys and `SecretBytes`, whose storage is never empty).
    @inline(__always) var u8: UnsafePointer<UInt8> { baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self) }
}

extension UnsafeMutableRawBufferPointer {
    /// See `UnsafeRawBufferPointer.u8`.
    @inline(__always) var u8: UnsafeMutablePointer<UInt8> {
        baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self)
    }
}
