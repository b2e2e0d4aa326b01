import CSodium

/// Secret material (seeds, secret keys, mnemonic phrases, passwords) held in memory that is
/// zeroed (`sodium_memzero`) when the last copy is released.
///
/// Security facts:
/// - `description`/`debugDescription` never show the bytes (only the length), and the type is
///   deliberately not `Encodable`, `Hashable` or `CustomReflectable`-transparent.
/// - `==` is constant-time in the contents (`sodium_memcmp`); lengths are not secret.
/// - Immutable after creation; copies share one wiped-on-release buffer, so it is `Sendable`.
/// - Wiping is best effort: bytes that passed through a Swift `String` or `Array` before they
///   reached this type cannot be wiped by it.
public struct SecretBytes: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    private final class Storage: @unchecked Sendable {
        // Written once in init, then only read; wiped in deinit. Hence @unchecked Sendable.
        let pointer: UnsafeMutableRawBufferPointer

        init(count: Int) {
            pointer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
            pointer.initializeMemory(as: UInt8.self, repeating: 0)
            _ = sodium_mlock(pointer.baseAddress.unsafelyUnwrapped, pointer.count)
        }

        deinit {
            sodium_memzero(pointer.baseAddress.unsafelyUnwrapped, pointer.count)
            _ = sodium_munlock(pointer.baseAddress.unsafelyUnwrapped, pointer.count)
            pointer.deallocate()
        }
    }

    private let storage: Storage
    /// Number of secret bytes. Not secret.
    public let count: Int

    /// Copies `bytes` into wiped-on-release storage. The caller should wipe its own copy.
    public init(_ bytes: some Collection<UInt8>) {
        count = bytes.count
        storage = Storage(count: count)
        var i = 0
        for b in bytes {
            storage.pointer[i] = b
            i += 1
        }
    }

    /// Creates `count` bytes filled by `body`, which writes directly into the secret buffer
    /// (no intermediate copies).
    public init(count: Int, _ body: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        self.count = count
        storage = Storage(count: count)
        try body(UnsafeMutableRawBufferPointer(rebasing: storage.pointer[0..<count]))
    }

    /// `count` bytes from the operating system's CSPRNG (`randombytes_buf`).
    public static func random(count: Int) -> SecretBytes {
        Sodium.ensureInitialized()
        return SecretBytes(count: count) {
            if $0.count > 0 { randombytes_buf($0.baseAddress.unsafelyUnwrapped, $0.count) }
        }
    }

    /// Calls `body` with read-only access to the secret bytes. Do not let the pointer escape and do
    /// not copy the bytes into long-lived storage.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(rebasing: storage.pointer[0..<count]))
    }

    /// A copy of a sub-range as new secret storage.
    public func slice(_ range: Range<Int>) -> SecretBytes {
        SecretBytes(count: range.count) { dst in
            withUnsafeBytes { src in
                dst.copyMemory(from: UnsafeRawBufferPointer(rebasing: src[range]))
            }
        }
    }

    /// Exposes the bytes as an `Array` for callers that must hand them to an API taking arrays
    /// (e.g. export). The returned array is NOT wiped automatically.
    public func unsafeExposedBytes() -> [UInt8] { withUnsafeBytes { Array($0) } }

    /// Constant-time equality of contents (`sodium_memcmp`); different lengths compare unequal.
    public static func == (lhs: SecretBytes, rhs: SecretBytes) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.count == 0 { return true }
        return lhs.withUnsafeBytes { a in
            rhs.withUnsafeBytes { b in
                sodium_memcmp(a.baseAddress.unsafelyUnwrapped, b.baseAddress.unsafelyUnwrapped, a.count) == 0
            }
        }
    }

    public var description: String { "SecretBytes(\(count) bytes, redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["count": count], displayStyle: .struct) }
}
