import Hummingbird
import LinkShortener
import Logging
import PostgresNIO
import PostgresTestSupport

extension TestDatabase {
    /// The server's configuration, from the same `POSTGRES_*` variables as `main.swift` reads
    /// (`.ci/postgres-start` prints them): each test server changes its schema and pool.
    static let config = DatabaseConfig(environment: Environment())

    /// The tests' database: schemas named `test_` and 16 hexadecimal digits, and a budget of 170
    /// connections, of the 200 the server allows (`.ci/postgres-start`), a few of them reserved,
    /// and the tests' own connections need some.
    static let shared = TestDatabase(
        server: config.clientConfiguration, applicationName: "link-shortener-tests", schemaPrefix: "test_",
        connectionBudget: 170)
}

extension PostgresConnection {
    /// How many links this connection sees with a URL starting with `prefix`: inside a
    /// transaction, the committed ones and the transaction's own.
    func countLinks(urlPrefix prefix: String) async throws -> Int {
        let rows = try await query(
            "SELECT count(*) FROM links WHERE starts_with(url, \(prefix))", logger: TestDatabase.logger
        ).collect()
        return try rows.first?.decode(Int.self) ?? 0
    }
}
