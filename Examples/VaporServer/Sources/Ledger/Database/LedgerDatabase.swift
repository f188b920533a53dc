import Logging
import PostgresNIO

/// The ledger's database, ready to use: the client, once the schema and its tables exist.
///
/// An eager singleton of the root injector, built when the application boots
/// (ObjectionVapor's `app.useInjector` starts the injector then), before the server accepts a
/// request. Its construction queries the client, which ``DatabaseClient`` is already running.
public struct LedgerDatabase: Sendable {
    /// The statements that create the schema's tables, in the connections' `search_path`.
    static let createTables: [PostgresQuery] = [
        """
        CREATE TABLE IF NOT EXISTS accounts (
            id bigserial PRIMARY KEY,
            owner text NOT NULL,
            balance bigint NOT NULL CHECK (balance >= 0),
            opened_by text NOT NULL,
            opened_at timestamptz NOT NULL DEFAULT now()
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS transfers (
            id bigserial PRIMARY KEY,
            from_account bigint NOT NULL REFERENCES accounts (id),
            to_account bigint NOT NULL REFERENCES accounts (id),
            amount bigint NOT NULL CHECK (amount > 0),
            teller text NOT NULL,
            request_id text NOT NULL,
            made_at timestamptz NOT NULL DEFAULT now()
        )
        """,
    ]

    /// Fails, at start-up rather than on the first request, when tables of these names exist with
    /// other columns.
    static let checkColumns: [PostgresQuery] = [
        "SELECT id, owner, balance, opened_by, opened_at FROM accounts LIMIT 0",
        "SELECT id, from_account, to_account, amount, teller, request_id, made_at FROM transfers LIMIT 0",
    ]

    /// The client whose pool lends the transactions.
    public let client: PostgresClient

    /// Creates the schema and its tables unless they exist, and checks their columns.
    ///
    /// - Parameters:
    ///   - database: The running client.
    ///   - config: Names the schema.
    ///   - logger: Where the queries are logged.
    /// - Throws: The database's errors; a table of the same name with other columns is one.
    public init(database: DatabaseClient, config: AppConfig, logger: Logger) async throws {
        let client = database.client
        try await client.query(
            PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(config.database.quotedSchema)"), logger: logger)
        for statement in Self.createTables + Self.checkColumns {
            try await client.query(statement, logger: logger)
        }
        self.client = client
    }

    /// How many accounts are open, committed ones only.
    ///
    /// - Parameter logger: Where the query is logged.
    /// - Returns: The count.
    /// - Throws: The database's errors.
    public func accountCount(logger: Logger) async throws -> Int {
        let rows = try await client.query("SELECT count(*) FROM accounts", logger: logger).collect()
        return try rows.first?.decode(Int.self) ?? 0
    }
}
