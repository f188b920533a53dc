import PostgresNIO

/// How to reach the PostgreSQL database that holds the notes.
///
/// The defaults are those of the throwaway server `.ci/postgres-start` starts: `127.0.0.1:54329`,
/// user and password `objection`, database `objection_example`.
///
/// ```swift
/// var database = DatabaseSettings()
/// database.schema = "notes_demo"
/// let client = PostgresClient(configuration: database.clientConfiguration, backgroundLogger: logger)
/// ```
public struct DatabaseSettings: Sendable {
    /// The server's host name or address.
    public var host = "127.0.0.1"
    /// The server's port.
    public var port = 54_329
    /// The role to connect as.
    public var username = "objection"
    /// The role's password.
    public var password = "objection"
    /// The database to connect to.
    public var database = "objection_example"
    /// The schema of the `notes` table, as the connections' `search_path`; `nil` for the
    /// server's default (`public`). The tests give each server a schema of its own.
    public var schema: String?
    /// The connections' `application_name`, as `pg_stat_activity` shows it.
    public var applicationName = "notes-server"
    /// The most connections the client's pool opens: at most this many transactions at once.
    public var maximumConnections = 20
    /// How many connections the pool opens at once and keeps open.
    ///
    /// postgres-nio's pool grows only while more requests wait than connections are leased or
    /// being opened; a test that holds as many transactions open together as the pool has
    /// connections sets this to that number, or the last ones would wait.
    var minimumConnections = 0

    /// The settings of `.ci/postgres-start`'s server.
    ///
    /// ```swift
    /// let database = DatabaseSettings()   // objection@127.0.0.1:54329/objection_example
    /// ```
    public init() {}

    /// The configuration of the ``AppModule``'s `PostgresClient`.
    ///
    /// TLS is off: the example talks to a server on the loopback interface. A server reached over
    /// a network would use `.require(…)`.
    var clientConfiguration: PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: .disable)
        configuration.options.maximumConnections = maximumConnections
        configuration.options.minimumConnections = minimumConnections
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        if let schema { configuration.options.additionalStartupParameters.append(("search_path", schema)) }
        return configuration
    }
}
