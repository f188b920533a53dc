import Logging
import PostgresNIO

/// The database of notes, ready to use: the client, once the `notes` table exists.
///
/// An eager singleton of the root injector. Its construction queries the client, and a
/// `PostgresClient`'s queries wait for its `run()`: so the injector is created with
/// `startup: .deferred`, and ObjectionServiceLifecycle's `InjectorService` runs the client (bound
/// `asService()`) and only then builds it. Every transaction resolves it first, so an RPC that
/// arrives while the injector is still starting waits for the table rather than finding none.
struct NotesDatabase: Sendable {
    /// The statement that creates the table, in the connections' `search_path`.
    static let createTable: PostgresQuery = """
        CREATE TABLE IF NOT EXISTS notes (
            id bigserial PRIMARY KEY,
            text text NOT NULL,
            request_id text NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now()
        )
        """

    /// Fails, at start-up rather than on the first RPC, when a table named `notes` exists with
    /// other columns.
    static let checkColumns: PostgresQuery = "SELECT id, text, request_id, created_at FROM notes LIMIT 0"

    /// The client whose pool lends the transactions.
    let client: PostgresClient
    /// The logger of the transactions, to which each RPC adds its request id.
    let logger: Logger

    /// Creates the `notes` table unless it exists, and checks its columns.
    ///
    /// - Parameters:
    ///   - client: The database client; its `run()` must be running, or this waits until it is.
    ///   - logger: Where the queries are logged.
    /// - Throws: The database's errors; a `notes` table with other columns is one.
    init(client: PostgresClient, logger: Logger) async throws {
        try await client.query(Self.createTable, logger: logger)
        try await client.query(Self.checkColumns, logger: logger)
        self.client = client
        self.logger = logger
    }
}
