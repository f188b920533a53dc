/// Where links are kept. The service sees only this protocol; ``AppModule`` binds it to
/// ``InMemoryLinkStore``, and a later module (a test, another environment) can bind it to
/// something else.
public protocol LinkStore: Sendable {
    /// Stores `link` unless its code is taken.
    ///
    /// - Parameter link: The link to store.
    /// - Returns: `false` if a link with the same code exists; nothing is changed then.
    /// - Throws: ``LinkStoreClosed`` once the store is closed.
    func insert(_ link: Link) async throws -> Bool

    /// The link with `code`, or `nil`.
    ///
    /// - Parameter code: The short code.
    /// - Throws: ``LinkStoreClosed`` once the store is closed.
    func find(code: String) async throws -> Link?

    /// How many links are stored.
    func count() async -> Int
}

/// Thrown by a ``LinkStore`` that has been closed.
public struct LinkStoreClosed: Error, Sendable {
    /// Creates the error.
    public init() {}
}
