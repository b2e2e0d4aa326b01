import ArgumentParser
import SigningKeys

extension KeyScheme: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}
