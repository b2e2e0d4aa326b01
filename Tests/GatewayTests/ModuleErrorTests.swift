import GatewayHTTP
import Journal
import Keystore
import MetadataHash
import PolkadotCodec
import Primitives
import ScaleCodec
import SignerCore
import SigningKeys
import StateStore
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
            (JournalError(.malformedFile, "r"), "JournalError.malformedFile: r"),
            (StateStoreError(.databaseDamaged, "r"), "StateStoreError.databaseDamaged: r"),
            (PolkadotCodecError(.badField, "r"), "PolkadotCodecError.badField: r"),
            (SignerError(.badField, "r"), "SignerError.badField: r"),
            (GatewayError(.notJournaled, "r"), "GatewayError.notJournaled: r"),
        ]
        for (error, expected) in errors {
            #expect(error.description == expected)
        }
        #expect("\(KeystoreError(.dataDirectoryInUse, "r").code)" == "dataDirectoryInUse")
    }

    /// A keystore error passed up through the journal and the state store keeps its code name, its
    /// reason and where it was thrown, so `sigil` prints `<code>: <reason>` as before.
    @Test func lowerLayerErrorsKeepTheirCodeName() {
        let full = KeystoreError(.diskFull, "write journal-key.json: ENOSPC")
        let journal = JournalError(full)
        let store = StateStoreError(journal)
        #expect(journal.code == .diskFull && store.code == .diskFull)
        #expect(store.reason == full.reason && store.file == full.file && store.line == full.line)
        #expect(StateStoreError(KeystoreError(.dataDirectoryInUse, "r")).code == .dataDirectoryInUse)
        #expect(StateStoreError(KeystoreError(.accountNotFound, "r")).code == .fileSystem)
        #expect(StateStoreError(JournalError(.decryptFailed, "r")).code == .database)
    }

    /// Every refusal of the Polkadot codec reaches the gateway, the journal and `sigil` as the
    /// SignerCore code of the same name (`badField`, `notHex`, …; scripts and the journal's `detail`
    /// match on these names), never as the fallback.
    @Test func everyPolkadotCodecCodeReachesSignerCoreUnderItsName() {
        for code in PolkadotCodecErrorCode.allCases {
            let codec = PolkadotCodecError(code, "r")
            let passed = SignerError(codec)
            #expect(passed.code.rawValue == code.rawValue, "\(code)")
            #expect(passed.reason == codec.reason && passed.file == codec.file && passed.line == codec.line)
        }
        #expect(PolkadotCodecErrorCode.allCases.count == 16)
    }
}
