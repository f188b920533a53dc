/// Where links are kept. The service sees only this protocol; ``AppModule`` binds it to
/// ``PostgresLinkStore``, on the request's transaction, and a later module (a test) can bind it to
/// something else.
public protocol LinkStore: Sendable {
    /// Stores `link` unless its code is taken.
    ///
    /// - Parameter link: The link to store.
    /// - Returns: `false` if a link with the same code exists; nothing is changed then.
    /// - Throws: The database's errors.
    func insert(_ link: Link) async throws -> Bool

    /// The link with `code`, or `nil`.
    ///
    /// - Parameter code: The short code.
    /// - Throws: The database's errors.
    func find(code: String) async throws -> Link?
}
