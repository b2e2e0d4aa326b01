import ArgumentParser
import SigningKeys

extension KeyScheme: ExpressibleByArgument {
    package init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}
