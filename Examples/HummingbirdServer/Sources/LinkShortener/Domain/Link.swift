/// A short code and the URL it stands for.
public struct Link: Sendable, Hashable, Codable {
    /// The short code, unique in the store.
    public var code: String
    /// The URL the code expands to.
    public var url: String
    /// The name of the user who created the link.
    public var owner: String

    /// Creates a link.
    ///
    /// - Parameters:
    ///   - code: The short code.
    ///   - url: The URL it expands to.
    ///   - owner: The name of the user who created it.
    public init(code: String, url: String, owner: String) {
        self.code = code
        self.url = url
        self.owner = owner
    }
}
