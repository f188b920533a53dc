import Logging
import PostgresNIO

/// A ``LinkStore`` on one PostgreSQL connection: the request's transaction.
///
/// Scoped: the request's transaction scope builds one, from the `PostgresConnection` it binds as
/// a scope value, so that every query of the request runs in that transaction. The `/plain` route
/// builds one by hand on the connection its own `withTransaction` lends.
public struct PostgresLinkStore: LinkStore {
    private let connection: PostgresConnection
    private let logger: Logger

    /// Creates the store for one transaction.
    ///
    /// - Parameters:
    ///   - connection: The connection, in the transaction, that the queries run on.
    ///   - logger: The request's logger, with its id, for the queries.
    public init(connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    public func insert(_ link: Link) async throws -> Bool {
        // A taken code is no error: an error would abort the transaction, and its COMMIT would
        // quietly roll back.
        let inserted = try await connection.query(
            """
            INSERT INTO links (code, url, owner) VALUES (\(link.code), \(link.url), \(link.owner))
            ON CONFLICT (code) DO NOTHING RETURNING code
            """,
            logger: logger
        ).collect()
        return !inserted.isEmpty
    }

    public func find(code: String) async throws -> Link? {
        let rows = try await connection.query(
            "SELECT code, url, owner FROM links WHERE code = \(code)", logger: logger
        ).collect()
        guard let row = rows.first else { return nil }
        let (code, url, owner) = try row.decode((String, String, String).self)
        return Link(code: code, url: url, owner: owner)
    }
}
