import CSodium
import Primitives
import SigilTesting
import Testing

@testable import SigningKeys

/// Unit tests of the variable-time verification arithmetic in `Curve25519/` against an
/// independent reference (field) and against libsodium 1.0.18 (points, scalar multiplication,
/// ristretto255 decoding and encoding).
@Suite struct Curve25519Tests {
    init() { _ = SecretBytes.random(count: 1) }  // initialises libsodium

    static func fe(_ b: [UInt8]) -> FieldElement51 { FieldElement51(bytes: b) }

    /// p − 19 + i as bytes, for i in 0..<32 (crosses p = 2^255 − 19 at i = 19).
    static func nearP(_ i: Int) -> [UInt8] {
        var b = [UInt8](repeating: 0xff, count: 32)
        b[31] = 0x7f
        b[0] = UInt8(0xed - 19 + i)
        return b
    }

    // MARK: field

    @Test func fieldMultiplySquareAddSubtractAgreeWithTheSchoolbookReference() {
        var rng = TestBytes(seed: 1)
        for i in 0..<2000 {
            // Mix uniform values with values at and above p and with all-ones limbs.
            var a = rng.bytes(32)
            var b = rng.bytes(32)
            if i % 7 == 0 { a = Self.nearP(i % 32) }
            if i % 11 == 0 { b = [UInt8](repeating: 0xff, count: 32) }
            a[31] &= 0x7f
            b[31] &= 0x7f
            let x = Self.fe(a)
            let y = Self.fe(b)
            #expect((x * y).bytes() == ReferenceField.mul(a, b), "mul case \(i)")
            #expect(x.squared().bytes() == ReferenceField.mul(a, a), "square case \(i)")
            #expect((x + y).bytes() == ReferenceField.add(a, b), "add case \(i)")
            #expect((x - y).bytes() == ReferenceField.sub(a, b), "sub case \(i)")
            #expect(x.negated().bytes() == ReferenceField.sub([UInt8](repeating: 0, count: 32), a), "neg case \(i)")
            // Chains keep limbs within the documented bounds: compare a longer expression.
            let chain = ((x + y) * (x - y) + x.squared2()) * (y + y + y)
            let ab = ReferenceField.mul(ReferenceField.add(a, b), ReferenceField.sub(a, b))
            let a2 = ReferenceField.add(ReferenceField.mul(a, a), ReferenceField.mul(a, a))
            let y3 = ReferenceField.add(ReferenceField.add(b, b), b)
            #expect(chain.bytes() == ReferenceField.mul(ReferenceField.add(ab, a2), y3), "chain case \(i)")
        }
    }

    @Test func fieldEncodingIsCanonicalAtAndAboveP() {
        for i in 0..<32 {
            let b = Self.nearP(i)
            #expect(Self.fe(b).bytes() == ReferenceField.canonical(b))
        }
        // Bit 255 is ignored on decoding and never set on encoding.
        var top = [UInt8](repeating: 0, count: 32)
        top[0] = 5
        top[31] = 0x80
        #expect(Self.fe(top).bytes() == [5] + [UInt8](repeating: 0, count: 31))
        #expect(Self.fe(Self.nearP(19)).isZero)  // p itself
        #expect(!Self.fe(Self.nearP(18)).isZero)
        #expect(!Self.fe(Self.nearP(18)).isNegative)  // p − 1 is even
        #expect(Self.fe(Self.nearP(20)).isNegative)  // p + 1 ≡ 1
    }

    @Test func inversionAndSquareRootsAreCorrect() {
        var rng = TestBytes(seed: 2)
        for i in 0..<200 {
            var a = rng.bytes(32)
            a[31] &= 0x7f
            let x = Self.fe(a)
            if x.isZero { continue }
            #expect((x * x.inverted()).bytes() == FieldElement51.one.bytes(), "inverse case \(i)")
            let (ok, r) = FieldElement51.sqrtRatioM1(.one, x)
            #expect(!r.isNegative)
            if ok {
                #expect((r.squared() * x).bytes() == FieldElement51.one.bytes(), "sqrt case \(i)")
            } else {
                // Non-square: r² · x = √−1.
                #expect((r.squared() * x).bytes() == FieldElement51.sqrtM1.bytes(), "nonsquare case \(i)")
            }
            // Every square is a square.
            let (sq, r2) = FieldElement51.sqrtRatioM1(x.squared(), .one)
            #expect(sq && r2.squared() == x.squared())
        }
        #expect(FieldElement51.sqrtRatioM1(.one, .zero).0 == false)
        #expect(FieldElement51.sqrtRatioM1(.zero, .one).0 == true)
    }

    @Test func curveConstantsHaveTheirDefiningProperties() {
        let d = FieldElement51.d
        let n121666 = FieldElement51(121_666, 0, 0, 0, 0)
        let n121665 = FieldElement51(121_665, 0, 0, 0, 0)
        #expect(d * n121666 == n121665.negated())
        #expect(FieldElement51.sqrtM1.squared() == FieldElement51.one.negated())
        #expect(!FieldElement51.sqrtM1.isNegative)
        // INVSQRT_A_MINUS_D² · (a − d) = 1 with a = −1, and it is the non-negative root.
        let aMinusD = FieldElement51.one.negated() - d
        #expect(FieldElement51.invSqrtAMinusD.squared() * aMinusD == FieldElement51.one)
        #expect(!FieldElement51.invSqrtAMinusD.isNegative)
        #expect(FieldElement51.d2 == d + d)
    }

    // MARK: ristretto255 against libsodium

    @Test func decodingAndEncodingRoundTripLibsodiumPoints() throws {
        var rng = TestBytes(seed: 3)
        for i in 0..<500 {
            let enc = rng.point()
            let p = try #require(RistrettoPoint(decoding: enc), "case \(i)")
            #expect(p.encoded() == enc, "case \(i)")
        }
        #expect(RistrettoPoint.generator.encoded() == Self.libsodiumBase([1] + [UInt8](repeating: 0, count: 31)))
        #expect(
            RistrettoPoint(decoding: [UInt8](repeating: 0, count: 32))?.encoded() == [UInt8](repeating: 0, count: 32))
    }

    @Test func decodingAcceptsExactlyWhatLibsodiumAcceptsForRandomAndEdgeEncodings() {
        var rng = TestBytes(seed: 4)
        var cases: [[UInt8]] = (0..<4000).map { _ in
            var b = rng.bytes(32)
            b[31] &= 0x7f
            return b
        }
        // Every value from p − 19 to p + 12 (the ones ≥ p are non-canonical field encodings).
        cases += (0..<32).map { Self.nearP($0) }
        // Valid points, their negative-s twins (p − s, odd) and their s + p aliases where < 2^255.
        for _ in 0..<300 {
            let v = rng.point()
            cases.append(v)
            cases.append(ReferenceField.sub([UInt8](repeating: 0, count: 32), v))
            var alias = v
            var carry = 0
            for i in 0..<32 {
                let s = Int(alias[i]) + Int(ReferenceField.bytes(ReferenceField.p)[i]) + carry
                alias[i] = UInt8(s & 0xff)
                carry = s >> 8
            }
            if alias[31] & 0x80 == 0 { cases.append(alias) }
        }
        var accepted = 0
        for (i, c) in cases.enumerated() {
            let ours = RistrettoPoint(decoding: c) != nil
            let theirs = crypto_core_ristretto255_is_valid_point(c) == 1
            #expect(ours == theirs, "case \(i): \(hex(c))")
            if ours { accepted += 1 }
        }
        #expect(accepted > 300)  // the valid points at least
    }

    @Test func decodingRejectsBit255WhichLibsodium1018Ignores() throws {
        var rng = TestBytes(seed: 5)
        for _ in 0..<100 {
            var v = rng.point()
            #expect(RistrettoPoint(decoding: v) != nil)
            v[31] |= 0x80
            #expect(RistrettoPoint(decoding: v) == nil)
        }
        // Wrong lengths.
        #expect(RistrettoPoint(decoding: [UInt8](repeating: 0, count: 31)) == nil)
        #expect(RistrettoPoint(decoding: [UInt8](repeating: 0, count: 33)) == nil)
    }

    @Test func additionSubtractionAndDoublingAgreeWithLibsodium() throws {
        var rng = TestBytes(seed: 6)
        for i in 0..<300 {
            let a = rng.point()
            let b = rng.point()
            let p = try #require(RistrettoPoint(decoding: a))
            let q = try #require(RistrettoPoint(decoding: b))
            var sum = [UInt8](repeating: 0, count: 32)
            var diff = [UInt8](repeating: 0, count: 32)
            var dbl = [UInt8](repeating: 0, count: 32)
            #expect(crypto_core_ristretto255_add(&sum, a, b) == 0)
            #expect(crypto_core_ristretto255_sub(&diff, a, b) == 0)
            #expect(crypto_core_ristretto255_add(&dbl, a, a) == 0)
            #expect((p + q).encoded() == sum, "add case \(i)")
            #expect((p - q).encoded() == diff, "sub case \(i)")
            #expect(RistrettoPoint(edwards: p.edwards.doubled()).encoded() == dbl, "double case \(i)")
            #expect(RistrettoPoint(edwards: p.edwards.negated()) + p == RistrettoPoint(edwards: .identity))
            #expect((p + q) - q == p)
        }
    }

    @Test func doubleScalarMultiplicationAgreesWithLibsodium() throws {
        var rng = TestBytes(seed: 7)
        let zero = [UInt8](repeating: 0, count: 32)
        for i in 0..<tierScaled(300) {
            let enc = rng.point()
            let point = try #require(RistrettoPoint(decoding: enc))
            // Reduced scalars, and every fourth case unreduced 255-bit ones.
            var a = rng.scalar()
            var b = rng.scalar()
            if i % 4 == 0 {
                a = rng.bytes(32)
                b = rng.bytes(32)
                a[31] &= 0x7f
                b[31] &= 0x7f
            }
            let aP = Self.libsodiumMul(a, enc)
            let bB = Self.libsodiumBase(b)
            var expected = [UInt8](repeating: 0, count: 32)
            #expect(crypto_core_ristretto255_add(&expected, aP, bB) == 0)
            let both = Self.mul(a, point, b)
            #expect(both.encoded() == expected, "a·P + b·B case \(i)")
            #expect(Self.mul(a, point, zero).encoded() == aP, "a·P case \(i)")
            #expect(Self.mul(zero, point, b).encoded() == bB, "b·B case \(i)")
        }
        // Small and extreme scalars.
        let enc = rng.point()
        let point = try #require(RistrettoPoint(decoding: enc))
        let order = Ristretto255.order
        var lMinus1 = order
        lMinus1[0] -= 1
        var max255 = [UInt8](repeating: 0xff, count: 32)
        max255[31] = 0x7f
        for s in [[1] + zero.dropFirst(), [2] + zero.dropFirst(), [16] + zero.dropFirst(), lMinus1, max255] {
            #expect(Self.mul(s, point, zero).encoded() == Self.libsodiumMul(s, enc))
            #expect(Self.mul(zero, point, s).encoded() == Self.libsodiumBase(s))
        }
        // l·P and 0·P + 0·B are the identity.
        #expect(Self.mul(order, point, order).encoded() == zero)
        #expect(Self.mul(zero, point, zero).encoded() == zero)
    }

    @Test func nonAdjacentFormsReconstructTheScalarAndAreSparse() {
        var rng = TestBytes(seed: 8)
        for i in 0..<300 {
            var s = rng.bytes(32)
            s[31] &= i % 2 == 0 ? 0x0f : 0x7f
            if i == 0 { s = [UInt8](repeating: 0xff, count: 32); s[31] = 0x7f }
            for w in [5, 8] {
                let naf = s.withUnsafeBytes { NonAdjacentForm(scalar: $0, width: w) }
                var acc = [Int](repeating: 0, count: 40)
                var lastNonZero = -w
                for j in 0..<256 {
                    let d = Int(naf.digits[j])
                    if d != 0 {
                        #expect(d & 1 == 1 && abs(d) < 1 << (w - 1), "digit \(d) at \(j)")
                        #expect(j - lastNonZero >= w, "adjacent non-zero digits at \(j)")
                        lastNonZero = j
                    }
                    acc[j / 8] += d << (j % 8)
                }
                var carry = 0
                var bytes: [UInt8] = []
                for j in 0..<40 {
                    let v = acc[j] + carry
                    bytes.append(UInt8(v & 0xff))
                    carry = v >> 8  // arithmetic shift: floor division
                }
                #expect(
                    carry == 0 && Array(bytes[0..<32]) == s && bytes[32...].allSatisfy { $0 == 0 }, "case \(i) w \(w)")
            }
        }
    }

    // MARK: helpers

    static func mul(_ a: [UInt8], _ p: RistrettoPoint, _ b: [UInt8]) -> RistrettoPoint {
        RistrettoPoint(
            edwards: a.withUnsafeBytes { ap in b.withUnsafeBytes { VartimeDoubleBase.mul(ap, p.edwards, $0) } })
    }

    /// libsodium n·B; the all-zero encoding when it reports the identity.
    static func libsodiumBase(_ n: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        if crypto_scalarmult_ristretto255_base(&out, n) != 0 { return [UInt8](repeating: 0, count: 32) }
        return out
    }

    /// libsodium n·P; the all-zero encoding when it reports the identity.
    static func libsodiumMul(_ n: [UInt8], _ p: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        if crypto_scalarmult_ristretto255(&out, n, p) != 0 { return [UInt8](repeating: 0, count: 32) }
        return out
    }
}
