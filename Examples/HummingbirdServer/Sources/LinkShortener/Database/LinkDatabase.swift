import Logging
import PostgresNIO

/// The database of links, ready to use: the client, once the `links` table exists.
///
/// An eager singleton of the root injector. Its construction queries the client, and a
/// `PostgresClient`'s queries wait for its `run()`: built while the injector is created, before
/// anything runs the client, it would wait forever. So the injector is created with
/// `startup: .deferred`, and ObjectionServiceLifecycle's `InjectorService` runs the client (bound
/// `asService()`) and only then builds it. Whatever depends on it (every transaction of the
/// `/links` routes) waits for the table the same way, also when a request arrives while the
/// injector is still starting.
public struct LinkDatabase: Sendable {
    /// The statement that creates the table, in the connections' `search_path`.
    static let createTable: PostgresQuery = """
        CREATE TABLE IF NOT EXISTS links (
            code text PRIMARY KEY,
            url text NOT NULL,
            owner text NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now()
        )
        """

    /// Fails, at start-up rather than on the first request, when a table named `links` exists
    /// with other columns.
    static let checkColumns: PostgresQuery = "SELECT code, url, owner, created_at FROM links LIMIT 0"

    /// The client whose pool lends the transactions.
    public let client: PostgresClient

    /// Creates the `links` table unless it exists, and checks its columns.
    ///
    /// - Parameters:
    ///   - client: The database client; its `run()` must be running, or this waits until it is.
    ///   - logger: Where the queries are logged.
    /// - Throws: The database's errors; a `links` table with other columns is one.
    public init(client: PostgresClient, logger: Logger) async throws {
        try await client.query(Self.createTable, logger: logger)
        try await client.query(Self.checkColumns, logger: logger)
        self.client = client
    }

    /// How many links are stored, committed ones only.
    ///
    /// - Parameter logger: Where the query is logged.
    /// - Returns: The count.
    /// - Throws: The database's errors.
    public func count(logger: Logger) async throws -> Int {
        let rows = try await client.query("SELECT count(*) FROM links", logger: logger).collect()
        return try rows.first?.decode(Int.self) ?? 0
    }
}
