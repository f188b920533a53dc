/// Makes random short codes of letters and digits (the service's id generator).
public struct CodeGenerator: Sendable {
    private static let alphabet = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")

    /// How many characters each code has.
    public let length: Int

    /// Creates a generator for codes of `config.codeLength` characters.
    ///
    /// - Parameter config: The service's settings.
    public init(config: AppConfig) {
        self.length = max(1, config.codeLength)
    }

    /// A new random code.
    public func next() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in Self.alphabet.randomElement(using: &generator) ?? "a" })
    }
}
