import Hummingbird
import LinkShortener
import Logging
import PostgresNIO

/// The real PostgreSQL server the tests run against (`.ci/postgres-start`, reached through the same
/// `POSTGRES_*` variables as the server), and connections of the tests' own, outside any server's
/// pool, to prepare it and to check what was committed.
///
/// Each test server gets a schema of its own, so that suites running in parallel see only their
/// own links.
enum TestDatabase {
    static let config = DatabaseConfig(environment: Environment())

    /// A new schema, named `test_` and 16 hexadecimal digits.
    static func makeSchema() async throws -> String {
        let hex = String(UInt64.random(in: .min ... .max), radix: 16)
        let name = "test_" + String(repeating: "0", count: 16 - hex.count) + hex
        // An identifier cannot be a bound parameter; this one is letters, digits and `_` only.
        try await withConnection {
            _ = try await $0.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(name)"), logger: logger)
        }
        return name
    }

    /// Drops `schema` and everything in it.
    static func dropSchema(_ schema: String) async throws {
        try await withConnection {
            _ = try await $0.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"), logger: logger)
        }
    }

    /// Returns once no connection with the `application_name` `name` is left on the server.
    ///
    /// A client closes its connections when its `run()` ends, but each server process behind one
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

    /// How many committed links of `schema` have a URL starting with `prefix`.
    static func countLinks(in schema: String, urlPrefix prefix: String) async throws -> Int {
        try await withConnection(schema: schema) { connection in
            try await connection.countLinks(urlPrefix: prefix)
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
        configuration.options.additionalStartupParameters = [("application_name", "link-shortener-tests")]
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
    /// How many links this connection sees with a URL starting with `prefix`: inside a
    /// transaction, the committed ones and the transaction's own.
    func countLinks(urlPrefix prefix: String) async throws -> Int {
        let rows = try await query(
            "SELECT count(*) FROM links WHERE starts_with(url, \(prefix))", logger: TestDatabase.logger
        ).collect()
        return try rows.first?.decode(Int.self) ?? 0
    }
}

/// How many connections the test servers running at once may open together: the server allows 200
/// (`.ci/postgres-start`), a few of them reserved, and the tests' own connections need some.
/// A server takes its pool's maximum, plus one for the tests' connections, before it starts, and
/// gives it back once its connections are gone; the others wait their turn.
actor ConnectionBudget {
    static let shared = ConnectionBudget(total: 170)

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
