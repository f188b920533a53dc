import Logging
import PostgresNIO
import TestSupport

/// The real PostgreSQL server a package's tests run against (`.ci/postgres-start`), and connections
/// of the tests' own, outside any server's pool, to prepare it and to check what was committed.
///
/// Each test server gets a schema of its own, named by ``schemaPrefix`` and 16 hexadecimal digits,
/// so that suites running in parallel, and other packages' tests on the same database, see only
/// their own tables; and a share of the ``budget``, so that together they stay under the server's
/// `max_connections`.
///
/// ```swift
/// extension TestDatabase {
///     static let shared = TestDatabase(
///         server: DatabaseConfig(environment: Environment()).clientConfiguration,
///         applicationName: "link-shortener-tests", schemaPrefix: "test_", connectionBudget: 170)
/// }
///
/// try await TestDatabase.shared.withSchema(reservingConnections: 9) { schema in
///     // Start a server whose pool uses `schema` as its search path and application name, run the
///     // test, stop the server.
/// }
/// ```
public struct TestDatabase: Sendable {
    /// The logger of the tests' own connections and queries: `critical` only.
    public static let logger = {
        var logger = Logger(label: "TestDatabase")
        logger.logLevel = .critical
        return logger
    }()

    /// How the tests' own connections reach the server.
    public let configuration: PostgresConnection.Configuration
    /// What every name ``makeSchemaName()`` returns starts with.
    public let schemaPrefix: String
    /// The connections the test servers of this process may open together.
    public let budget: ConnectionBudget

    /// Creates the tests' view of the server a package's own configuration names.
    ///
    /// - Parameters:
    ///   - server: The configuration the package's server would use: its host (or socket), port,
    ///     role, password and database are taken; TLS is off, as the test server is on loopback.
    ///   - applicationName: The `application_name` of the tests' own connections.
    ///   - schemaPrefix: What schema names start with: letters, digits and `_` only.
    ///   - connectionBudget: How many connections the test servers of this process may open
    ///     together, below the server's `max_connections` less what other packages' tests use.
    public init(
        server: PostgresClient.Configuration,
        applicationName: String,
        schemaPrefix: String,
        connectionBudget: Int
    ) {
        var configuration =
            if let path = server.unixSocketPath {
                PostgresConnection.Configuration(
                    unixSocketPath: path, username: server.username, password: server.password,
                    database: server.database)
            } else {
                PostgresConnection.Configuration(
                    host: server.host ?? "127.0.0.1", port: server.port ?? 5432, username: server.username,
                    password: server.password, database: server.database, tls: .disable)
            }
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        self.configuration = configuration
        self.schemaPrefix = schemaPrefix
        self.budget = ConnectionBudget(total: connectionBudget)
    }

    /// A new schema name, not yet created: ``schemaPrefix`` and 16 hexadecimal digits.
    public func makeSchemaName() -> String {
        let hex = String(UInt64.random(in: .min ... .max), radix: 16)
        return schemaPrefix + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Creates `schema`.
    ///
    /// - Parameter schema: A name from ``makeSchemaName()``.
    public func createSchema(_ schema: String) async throws {
        // An identifier cannot be a bound parameter; this one is letters, digits and `_` only.
        try await withConnection {
            _ = try await $0.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"), logger: Self.logger)
        }
    }

    /// Drops `schema` and everything in it, if it exists.
    ///
    /// - Parameter schema: A name from ``makeSchemaName()``.
    public func dropSchema(_ schema: String) async throws {
        try await withConnection {
            _ = try await $0.query(
                PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(schema) CASCADE"), logger: Self.logger)
        }
    }

    /// Returns once no connection with the `application_name` `name` is left on the server.
    ///
    /// A pool closes its connections when its `run()` ends, but each server process behind one
    /// exits a moment later, and until then it counts against `max_connections`.
    public func waitUntilDisconnected(applicationName name: String) async throws {
        try await withConnection { connection in
            while true {
                let rows = try await connection.query(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = \(name)", logger: Self.logger
                ).collect()
                if try rows.first?.decode(Int.self) == 0 { return }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    /// Runs `body` on a new connection, in `schema` when given, and closes it.
    ///
    /// - Parameters:
    ///   - schema: The connection's `search_path`; `nil` for the server's default.
    ///   - body: What to do on the connection.
    /// - Returns: What `body` returns.
    public func withConnection<T>(
        schema: String? = nil,
        _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        var configuration = self.configuration
        if let schema { configuration.options.additionalStartupParameters.append(("search_path", schema)) }
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Self.logger)
        return try await withTeardown {
            try await body(connection)
        } teardown: {
            try await connection.close()
        }
    }

    /// Runs `body` with a schema of its own, within the ``budget``: takes `connections` from the
    /// budget, names a schema (and creates it, if asked), runs `body` with its name, waits until
    /// the connections named after it are gone, drops it and gives the connections back.
    ///
    /// `body` starts the test server, runs the test and stops the server; the server uses the
    /// schema's name as its connections' `search_path` and `application_name`, which is how this
    /// knows when they are gone.
    ///
    /// - Parameters:
    ///   - connections: The most connections the test holds at once: its server's pool, plus one
    ///     for the tests' own connections.
    ///   - creatingSchema: Whether to create the schema first; `false` when the server creates it.
    ///   - body: The test, given the schema's name.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or a failure to create, wait for or drop the schema.
    public func withSchema<T>(
        reservingConnections connections: Int,
        creatingSchema: Bool = true,
        _ body: (String) async throws -> T
    ) async throws -> T {
        await budget.acquire(connections)
        return try await withTeardown {
            let schema = makeSchemaName()
            if creatingSchema { try await createSchema(schema) }
            return try await withTeardown {
                try await body(schema)
            } teardown: {
                try await waitUntilDisconnected(applicationName: schema)
                try await dropSchema(schema)
            }
        } teardown: {
            await budget.release(connections)
        }
    }
}
