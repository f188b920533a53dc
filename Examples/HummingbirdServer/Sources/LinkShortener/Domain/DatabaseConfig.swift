import Hummingbird
import PostgresNIO

/// How to reach the PostgreSQL database that holds the links.
///
/// The defaults are those of the throwaway server `.ci/postgres-start` starts: `127.0.0.1:54329`,
/// user and password `objection`, database `objection_example`.
///
/// ```swift
/// let config = DatabaseConfig(environment: Environment())   // POSTGRES_HOST, POSTGRES_PORT, …
/// let client = PostgresClient(configuration: config.clientConfiguration, backgroundLogger: logger)
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
    /// The schema the `links` table is in, as the connections' `search_path`; `nil` for the
    /// server's default (`public`). The tests give each server a schema of its own.
    public var schema: String?
    /// The connections' `application_name`, as `pg_stat_activity` shows it.
    public var applicationName: String
    /// The most connections the client's pool opens: at most this many transactions at once.
    public var maximumConnections: Int
    /// How many connections the pool opens at once and keeps open.
    ///
    /// postgres-nio's pool grows only while more requests wait than connections are leased or
    /// being opened: it expects leased connections back soon. When as many transactions as
    /// connections must be open together (the tests that hold 100 requests inside theirs), set
    /// this to that number; otherwise the pool stops short of it and the last requests wait.
    public var minimumConnections: Int

    /// Creates a configuration; every parameter has the default of `.ci/postgres-start`.
    ///
    /// - Parameters:
    ///   - host: The server's host name or address.
    ///   - port: The server's port.
    ///   - username: The role to connect as.
    ///   - password: The role's password.
    ///   - database: The database to connect to.
    ///   - schema: The schema of the `links` table, or `nil` for the server's default.
    ///   - applicationName: The connections' `application_name`.
    ///   - maximumConnections: The most connections the pool opens.
    ///   - minimumConnections: How many connections the pool keeps open.
    public init(
        host: String = "127.0.0.1",
        port: Int = 54_329,
        username: String = "objection",
        password: String = "objection",
        database: String = "objection_example",
        schema: String? = nil,
        applicationName: String = "link-shortener",
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

    /// Reads `POSTGRES_HOST`, `POSTGRES_PORT`, `POSTGRES_USER`, `POSTGRES_PASSWORD`, `POSTGRES_DB`,
    /// `POSTGRES_SCHEMA` and `POSTGRES_MAX_CONNECTIONS`, the first five as `.ci/postgres-start`
    /// prints them; a variable that is unset keeps its default.
    ///
    /// - Parameter environment: The process's environment.
    public init(environment: Environment) {
        let defaults = DatabaseConfig()
        self.init(
            host: environment.get("POSTGRES_HOST") ?? defaults.host,
            port: environment.get("POSTGRES_PORT").flatMap { Int($0) } ?? defaults.port,
            username: environment.get("POSTGRES_USER") ?? defaults.username,
            password: environment.get("POSTGRES_PASSWORD") ?? defaults.password,
            database: environment.get("POSTGRES_DB") ?? defaults.database,
            schema: environment.get("POSTGRES_SCHEMA"),
            maximumConnections: environment.get("POSTGRES_MAX_CONNECTIONS").flatMap { Int($0) }
                ?? defaults.maximumConnections
        )
    }

    /// The configuration of the ``AppModule``'s `PostgresClient`.
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
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        if let schema { configuration.options.additionalStartupParameters.append(("search_path", schema)) }
        return configuration
    }
}
