import Primitives
import SignerCore

/// The gateway's typed method registry: every protocol's closed set of methods under their wire
/// names, and one error mapper per protocol. Lookup by the untrusted message name is a dictionary
/// read; an unknown name is `nil` (answered as polkadot-js answers an unknown message).
package struct MethodRegistry: Sendable {
    /// A registered method. One case per protocol, so dispatch over it is exhaustive.
    package enum Method: Sendable, Hashable {
        case polkadot(PolkadotMethod)
        case icon(IconMethod)
        case icrc(IcrcMethod)

        package var type: any WireMethod.Type {
            switch self {
            case .polkadot(let method): method.type
            case .icon(let method): method.type
            case .icrc(let method): method.type
            }
        }
    }

    private let byName: [String: Method]
    private let mappers: [WireProtocol: any WireErrorMapper]

    /// A registry of `methods`. - Throws: `GatewayError.invalidInput` when two share a name or a
    /// method's protocol has no error mapper (a programming error, caught by the registry's tests).
    package init(methods: [Method], mappers: [WireProtocol: any WireErrorMapper]) throws {
        var byName: [String: Method] = [:]
        for method in methods {
            let type = method.type
            guard byName.updateValue(method, forKey: type.name) == nil else {
                throw GatewayError(.invalidInput, "method \(type.name) registered twice")
            }
            guard mappers[type.wireProtocol] != nil else {
                throw GatewayError(.invalidInput, "no error mapper for \(type.wireProtocol)")
            }
        }
        self.byName = byName
        self.mappers = mappers
    }

    /// Every protocol Sigil speaks.
    package static func standard() throws -> MethodRegistry {
        try MethodRegistry(
            methods: PolkadotMethod.allCases.map(Method.polkadot) + IconMethod.allCases.map(Method.icon)
                + IcrcMethod.allCases.map(Method.icrc),
            mappers: [.polkadot: PolkadotErrorMapper(), .icon: IconErrorMapper(), .icrc: IcrcErrorMapper()])
    }

    /// The method registered under a wire name.
    package func method(named name: String) -> Method? { byName[name] }

    /// Every registered wire name.
    package var names: [String] { byName.keys.sorted() }

    /// The error mapper of a protocol (polkadot-js strings when none is registered).
    package func errorMapper(for wireProtocol: WireProtocol) -> any WireErrorMapper {
        mappers[wireProtocol] ?? PolkadotErrorMapper()
    }
}
