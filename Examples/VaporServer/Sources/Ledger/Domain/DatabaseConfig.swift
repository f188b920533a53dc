import PostgresNIO
import Vapor

/// How to reach the PostgreSQL database that holds the ledger, and in which schema.
///
/// The defaults are those of the throwaway server `.ci/postgres-start` starts: `127.0.0.1:54329`,
/// user and password `objection`, database `objection_example`; the tables live in the schema
/// `vapor_ledger`, created at start-up, so that they never meet another example's.
///
/// ```swift
/// let config = DatabaseConfig.fromEnvironment()   // POSTGRES_HOST, POSTGRES_PORT, …
/// ```
public struct DatabaseConfig: Sendable {
    /// The server's host name or address.
    public var host: String
    /// The server's port.
    public var port: Int
    /// The role to connect as.
    public var username: String
    /// The role's password.
    public var password: String
    /// The database to connect to.
    public var database: String
    /// The schema of the ledger's tables, created at start-up unless it exists: the connections'
    /// `search_path`. Taken as one identifier, case and all.
    public var schema: String
    /// The connections' `application_name`, as `pg_stat_activity` shows it.
    public var applicationName: String
    /// The most connections the client's pool opens: at most this many transactions at once.
    public var maximumConnections: Int
    /// How many connections the pool opens at once and keeps open.
    ///
    /// postgres-nio's pool grows only while more requests wait than connections are leased or
    /// being opened. When as many transactions as connections must be open together (the tests
    /// that hold many requests inside theirs), set this to that number.
    public var minimumConnections: Int

    /// Creates a configuration; every parameter has the default of `.ci/postgres-start`.
    ///
    /// - Parameters:
    ///   - host: The server's host name or address.
    ///   - port: The server's port.
    ///   - username: The role to connect as.
    ///   - password: The role's password.
    ///   - database: The database to connect to.
    ///   - schema: The schema of the ledger's tables.
    ///   - applicationName: The connections' `application_name`.
    ///   - maximumConnections: The most connections the pool opens.
    ///   - minimumConnections: How many connections the pool keeps open.
    public init(
        host: String = "127.0.0.1",
        port: Int = 54_329,
        username: String = "objection",
        password: String = "objection",
        database: String = "objection_example",
        schema: String = "vapor_ledger",
        applicationName: String = "vapor-ledger",
        maximumConnections: Int = 20,
        minimumConnections: Int = 0
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.schema = schema
        self.applicationName = applicationName
        self.maximumConnections = maximumConnections
        self.minimumConnections = minimumConnections
    }

    /// Reads `POSTGRES_HOST`, `POSTGRES_PORT`, `POSTGRES_USER`, `POSTGRES_PASSWORD`, `POSTGRES_DB`
    /// (as `.ci/postgres-start` prints them), `LEDGER_SCHEMA` and `POSTGRES_MAX_CONNECTIONS`; a
    /// variable that is unset keeps its default.
    ///
    /// - Returns: The configuration.
    public static func fromEnvironment() -> DatabaseConfig {
        let defaults = DatabaseConfig()
        return DatabaseConfig(
            host: Environment.get("POSTGRES_HOST") ?? defaults.host,
            port: Environment.get("POSTGRES_PORT").flatMap { Int($0) } ?? defaults.port,
            username: Environment.get("POSTGRES_USER") ?? defaults.username,
            password: Environment.get("POSTGRES_PASSWORD") ?? defaults.password,
            database: Environment.get("POSTGRES_DB") ?? defaults.database,
            schema: Environment.get("LEDGER_SCHEMA") ?? defaults.schema,
            maximumConnections: Environment.get("POSTGRES_MAX_CONNECTIONS").flatMap { Int($0) }
                ?? defaults.maximumConnections
        )
    }

    /// The configuration of the ``DatabaseClient``'s `PostgresClient`.
    ///
    /// TLS is off: the example talks to a server on the loopback interface. A server reached over
    /// a network would use `.require(…)`.
    public var clientConfiguration: PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: host,
            port: port,
            username: username,
            password: password,
            database: database,
            tls: .disable
        )
        configuration.options.maximumConnections = maximumConnections
        configuration.options.minimumConnections = minimumConnections
        configuration.options.additionalStartupParameters = [
            ("application_name", applicationName), ("search_path", quotedSchema),
        ]
        return configuration
    }

    /// ``schema`` as an SQL identifier: in double quotes, any inner one doubled. An identifier
    /// cannot be a bound parameter.
    var quotedSchema: String {
        "\"" + String(schema.flatMap { $0 == "\"" ? "\"\"" : String($0) }) + "\""
    }
}
