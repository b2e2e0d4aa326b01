/// A rule over several options (for example "auto-approve needs dev"), run on the effective
/// configuration after every value passed its own checks.
package struct ConfigurationRule: Sendable {
    private let body: @Sendable (ResolvedConfiguration) -> ConfigurationError?

    /// - Parameter body: returns the error (naming the field and its source) or nil.
    package init(_ body: @escaping @Sendable (ResolvedConfiguration) -> ConfigurationError?) {
        self.body = body
    }

    func check(_ configuration: ResolvedConfiguration) -> ConfigurationError? { body(configuration) }
}
