/// A heap buffer for secret bytes (decrypted keyring plaintext, scrypt keys, seeds) that is zeroed
/// with `sodium_memzero` when the last reference goes away.
///
/// Security: never printed (`description` is redacted), not `Codable`, contents immutable after the
/// producer filled them. Copies made with `bytes` are ordinary arrays the caller must not keep.
final class SensitiveBytes: @unchecked Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    ContiguousBytesView
{
    // @unchecked Sendable: the storage is written only by the creator before the object is shared
    // (scrypt/secretbox output, `init(copying:)`) and freed in deinit.
    private let storage: UnsafeMutableRawBufferPointer

    /// A zero-filled buffer of `count` bytes.
    init(count: Int) {
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 0), alignment: 16)
        storage.initializeMemory(as: UInt8.self, repeating: 0)
    }

    /// A copy of `bytes`.
    convenience init<C: Collection>(copying bytes: C) where C.Element == UInt8 {
        self.init(count: bytes.count)
        _ = storage.initializeMemory(as: UInt8.self, from: bytes)
    }

    deinit {
        Sodium.wipe(storage)
        storage.deallocate()
    }

    var count: Int { storage.count }

    /// A copy of bytes `range`; the caller takes responsibility for the copy.
    func slice(_ range: Range<Int>) -> SensitiveBytes {
        SensitiveBytes(copying: UnsafeRawBufferPointer(rebasing: storage[range]))
    }

    /// A plain array copy. Use only to hand bytes to an API that needs an array.
    var bytes: [UInt8] { [UInt8](storage) }

    func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(storage))
    }

    func withUnsafeMutableBytes<R, E: Error>(_ body: (UnsafeMutableRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(storage)
    }

    func withBytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(storage).bindMemory(to: UInt8.self))
    }

    /// Compares in constant time (`sodium_memcmp`-style loop) for equal lengths.
    func constantTimeEquals(_ other: some Collection<UInt8>) -> Bool {
        guard other.count == count else { return false }
        var diff: UInt8 = 0
        for (a, b) in zip(storage, other) { diff |= a ^ b }
        return diff == 0
    }

    var description: String { "SensitiveBytes(\(count) bytes, redacted)" }
    var debugDescription: String { description }
}
