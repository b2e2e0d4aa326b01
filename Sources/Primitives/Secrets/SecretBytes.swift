import CSodium

/// Secret material (seeds, secret keys, mnemonic phrases, passwords, derived encryption keys,
/// decrypted keystore plaintext) held in memory that is locked (`sodium_mlock`, best effort) and
/// zeroed (`sodium_memzero`) when the last copy is released. The project's one secret buffer.
///
/// Security facts:
/// - `description`/`debugDescription`/`customMirror` never show the bytes (only the length); the type
///   is deliberately not `Encodable` or `Hashable`.
/// - `==` is constant-time in the contents (`sodium_memcmp`); lengths are not secret.
/// - Immutable once created (producers write through ``init(count:_:)``); copies share one
///   wiped-on-release buffer, so it is `Sendable`.
/// - Wiping is best effort: bytes that passed through a Swift `String` or `Array` before they reached
///   this type cannot be wiped by it.
package struct SecretBytes: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    private final class Storage: @unchecked Sendable {
        // Written only while the creating initialiser runs, then only read; wiped in deinit.
        let base: UnsafeMutableRawPointer
        let capacity: Int

        init(count: Int) {
            capacity = max(count, 1)
            base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
            base.initializeMemory(as: UInt8.self, repeating: 0, count: capacity)
            _ = sodium_mlock(base, capacity)
        }

        deinit {
            sodium_memzero(base, capacity)
            _ = sodium_munlock(base, capacity)
            base.deallocate()
        }
    }

    private let storage: Storage
    /// Number of secret bytes. Not secret.
    package let count: Int

    /// Copies `bytes` into wiped-on-release storage. The caller should wipe its own copy.
    package init(_ bytes: some Collection<UInt8>) {
        count = bytes.count
        storage = Storage(count: count)
        let buffer = UnsafeMutableRawBufferPointer(start: storage.base, count: count)
        _ = buffer.initializeMemory(as: UInt8.self, from: bytes)
    }

    /// `count` zero bytes.
    package init(zeros count: Int) {
        self.count = count
        storage = Storage(count: count)
    }

    /// Creates `count` bytes filled by `body`, which writes directly into the secret buffer (no
    /// intermediate copies).
    package init<E: Error>(count: Int, _ body: (UnsafeMutableRawBufferPointer) throws(E) -> Void) throws(E) {
        self.count = count
        storage = Storage(count: count)
        try body(UnsafeMutableRawBufferPointer(start: storage.base, count: count))
    }

    /// `count` bytes from the operating system's CSPRNG (`randombytes_buf`).
    package static func random(count: Int) -> SecretBytes {
        Sodium.ensureInitialized()
        return SecretBytes(count: count) { buffer in
            if let base = buffer.baseAddress, buffer.count > 0 { randombytes_buf(base, buffer.count) }
        }
    }

    /// Calls `body` with read-only access to the secret bytes. Do not let the pointer escape and do
    /// not copy the bytes into long-lived storage.
    package func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: storage.base, count: count))
    }

    /// A copy of a sub-range as new secret storage. The range must lie within `0..<count`.
    package func slice(_ range: Range<Int>) -> SecretBytes {
        let clamped = range.clamped(to: 0..<count)
        return SecretBytes(count: clamped.count) { dst in
            withUnsafeBytes { src in dst.copyMemory(from: UnsafeRawBufferPointer(rebasing: src[clamped])) }
        }
    }

    /// The concatenation of secrets, in new secret storage.
    package static func concatenating(_ parts: [SecretBytes]) -> SecretBytes {
        SecretBytes(count: parts.reduce(0) { $0 + $1.count }) { dst in
            var offset = 0
            for part in parts {
                part.withUnsafeBytes { src in
                    UnsafeMutableRawBufferPointer(rebasing: dst[offset..<offset + src.count]).copyMemory(from: src)
                }
                offset += part.count
            }
        }
    }

    /// Exposes the bytes as an `Array` for callers that must hand them to an API taking arrays. The
    /// returned array is NOT wiped automatically: wipe it (`ConstantTime.wipe`) when done.
    package func unsafeExposedBytes() -> [UInt8] { withUnsafeBytes { Array($0) } }

    /// Constant-time comparison with plain bytes (different lengths compare unequal).
    package func constantTimeEquals(_ other: some Collection<UInt8>) -> Bool {
        withUnsafeBytes { ConstantTime.equals($0, other) }
    }

    /// Constant-time equality of contents (`sodium_memcmp`); different lengths compare unequal.
    package static func == (lhs: SecretBytes, rhs: SecretBytes) -> Bool {
        lhs.withUnsafeBytes { a in rhs.withUnsafeBytes { b in ConstantTime.compare(a, b) } }
    }

    package var description: String { "SecretBytes(\(count) bytes, redacted)" }
    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: ["count": count], displayStyle: .struct) }
}
