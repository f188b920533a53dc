import Ledger
import Logging
import PostgresNIO

/// The real PostgreSQL server the tests run against (`.ci/postgres-start`, reached through the same
/// `POSTGRES_*` variables as the server), and connections of the tests' own, outside any server's
/// pool, to prepare it and to check what was committed.
///
/// Each test server gets a schema of its own, named `vapor_test_` and 16 hexadecimal digits, which
/// its ``LedgerDatabase`` creates and the test drops: suites running in parallel, and the
/// Hummingbird example's tests on the same database, see only their own tables.
enum TestDatabase {
    static let config = DatabaseConfig.fromEnvironment()

    /// A new schema name, not yet created.
    static func makeSchemaName() -> String {
        let hex = String(UInt64.random(in: .min ... .max), radix: 16)
        return "vapor_test_" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Drops `schema` and everything in it, if it exists.
    static func dropSchema(_ schema: String) async throws {
        // An identifier cannot be a bound parameter; this one is letters, digits and `_` only.
        try await withConnection {
            _ = try await $0.query(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(schema) CASCADE"), logger: logger)
        }
    }

    /// Returns once no connection with the `application_name` `name` is left on the server.
    ///
    /// A pool closes its connections when its `run()` ends, but each server process behind one
    /// exits a moment later, and until then it counts against `max_connections`.
    static func waitUntilDisconnected(applicationName name: String) async throws {
        try await withConnection { connection in
            while true {
                let rows = try await connection.query(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = \(name)", logger: logger
                ).collect()
                if try rows.first?.decode(Int.self) == 0 { return }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    /// Runs `body` on a new connection, in `schema` when given, and closes it.
    static func withConnection<T>(
        schema: String? = nil,
        _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        var configuration = PostgresConnection.Configuration(
            host: config.host,
            port: config.port,
            username: config.username,
            password: config.password,
            database: config.database,
            tls: .disable
        )
        configuration.options.additionalStartupParameters = [("application_name", "vapor-ledger-tests")]
        if let schema { configuration.options.additionalStartupParameters.append(("search_path", schema)) }
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        let result: Result<T, any Error>
        do {
            result = .success(try await body(connection))
        } catch {
            result = .failure(error)
        }
        try await connection.close()
        return try result.get()
    }

    static let logger = {
        var logger = Logger(label: "TestDatabase")
        logger.logLevel = .critical
        return logger
    }()
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

/// How many connections the test servers of this process may open together: the database allows
/// 200 (`.ci/postgres-start`), and the Hummingbird example's tests may use the same one at the
/// same time. A server takes its pool's maximum, plus one for the tests' own connections, before
/// it starts, and gives them back once its connections are gone; the others wait their turn.
actor ConnectionBudget {
    static let shared = ConnectionBudget(total: 80)

    private var available: Int
    private var waiting: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(total: Int) {
        self.available = total
    }

    func acquire(_ count: Int) async {
        if waiting.isEmpty, count <= available {
            available -= count
            return
        }
        await withCheckedContinuation { waiting.append((count, $0)) }
    }

    func release(_ count: Int) {
        available += count
        // First come, first served: a large request is not starved by small ones.
        while let first = waiting.first, first.count <= available {
            available -= first.count
            waiting.removeFirst()
            first.continuation.resume()
        }
    }
}
