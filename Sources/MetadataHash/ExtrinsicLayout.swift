import ScaleCodec
import SigningKeys

/// What an extrinsic is made of, in RFC-0078's terms (its `ExtrinsicMetadata`): the extrinsic
/// version, the address, call and signature types, and each signed extension's explicit
/// ("included in extrinsic") and implicit ("included in signed data") types, in extrinsic order.
///
/// Its hash, BLAKE3 of the SCALE encoding, is `extrinsic_metadata_hash` in the digest.
package struct ExtrinsicLayout: Hashable, Sendable {
    package var version: UInt8
    package var addressType: TypeRef
    package var callType: TypeRef
    package var signatureType: TypeRef
    package var signedExtensions: [Extension]

    /// RFC-0078 `SignedExtensionMetadata`.
    package struct Extension: Hashable, Sendable {
        package var identifier: String
        package var includedInExtrinsic: TypeRef
        package var includedInSignedData: TypeRef

        package init(identifier: String, includedInExtrinsic: TypeRef, includedInSignedData: TypeRef) {
            self.identifier = identifier
            self.includedInExtrinsic = includedInExtrinsic
            self.includedInSignedData = includedInSignedData
        }
    }

    package init(
        version: UInt8, addressType: TypeRef, callType: TypeRef, signatureType: TypeRef, signedExtensions: [Extension]
    ) {
        self.version = version
        self.addressType = addressType
        self.callType = callType
        self.signatureType = signatureType
        self.signedExtensions = signedExtensions
    }

    /// The SCALE encoding.
    package var encoded: [UInt8] {
        var w = ScaleWriter(capacity: 512)
        w.writeU8(version)
        addressType.encode(to: &w)
        callType.encode(to: &w)
        signatureType.encode(to: &w)
        w.writeVector(signedExtensions) { w, e in
            w.writeString(e.identifier)
            e.includedInExtrinsic.encode(to: &w)
            e.includedInSignedData.encode(to: &w)
        }
        return w.bytes
    }

    /// BLAKE3 of the encoding.
    package var hash: [UInt8] { Blake3.hash(encoded) }
}
