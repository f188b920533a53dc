import Ledger
import Logging
import PostgresNIO
import PostgresTestSupport

extension TestDatabase {
    /// The server's configuration, from the same `POSTGRES_*` variables as `main.swift` reads
    /// (`.ci/postgres-start` prints them): each test server changes its schema and pool.
    static let config = DatabaseConfig.fromEnvironment()

    /// The tests' database: schemas named `vapor_test_` and 16 hexadecimal digits, which each
    /// server's ``LedgerDatabase`` creates, so that the Hummingbird example's tests on the same
    /// database see none of them; and a budget of 80 connections, of the 200 the server allows
    /// (`.ci/postgres-start`), as the Hummingbird example's tests may use it at the same time.
    static let shared = TestDatabase(
        server: config.clientConfiguration, applicationName: "vapor-ledger-tests", schemaPrefix: "vapor_test_",
        connectionBudget: 80)
}

extension PostgresConnection {
    /// The balance of account `id` as this connection sees it: inside a transaction, with the
    /// transaction's own changes; `nil` if it sees no such account.
    func balance(of id: Int64) async throws -> Int64? {
        let rows = try await query("SELECT balance FROM accounts WHERE id = \(id)", logger: TestDatabase.logger)
            .collect()
        return try rows.first?.decode(Int64.self)
    }

    /// How many accounts of `owner` this connection sees.
    func accountCount(owner: String) async throws -> Int {
        let rows = try await query(
            "SELECT count(*) FROM accounts WHERE owner = \(owner)", logger: TestDatabase.logger
        ).collect()
        return try rows.first?.decode(Int.self) ?? 0
    }

    /// How many transfers this connection sees.
    func transferCount() async throws -> Int {
        let rows = try await query("SELECT count(*) FROM transfers", logger: TestDatabase.logger).collect()
        return try rows.first?.decode(Int.self) ?? 0
    }
}
