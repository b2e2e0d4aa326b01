import GatewayHTTP
import Keystore
import MetadataHash
import Primitives
import ScaleCodec
import SignerCore
import SigningKeys
import Testing

@testable import Gateway

/// Every module's error prints as `<Domain>.<code>: <reason>` (logs) and its code as the case name
/// (`sigil` prints `<code>: <reason>`; scripts and people read both), so neither may change.
@Suite struct ModuleErrorTests {
    @Test func everyModuleErrorPrintsItsDomainCodeAndReason() {
        let errors: [(any Error & CustomStringConvertible, String)] = [
            (HTTPError(.bodyTooLarge, "r"), "HTTPError.bodyTooLarge: r"),
            (ScaleError(.truncated, "r"), "ScaleError.truncated: r"),
            (KeyError(.badBase58, "r"), "KeyError.badBase58: r"),
            (MetadataHashError(.unknownType, "r"), "MetadataHashError.unknownType: r"),
            (KeystoreError(.diskFull, "r"), "KeystoreError.diskFull: r"),
            (SignerError(.badField, "r"), "SignerError.badField: r"),
            (GatewayError(.notJournaled, "r"), "GatewayError.notJournaled: r"),
        ]
        for (error, expected) in errors {
            #expect(error.description == expected)
        }
        #expect("\(KeystoreError(.dataDirectoryInUse, "r").code)" == "dataDirectoryInUse")
    }
}
