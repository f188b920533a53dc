/// The server's settings: where it listens, the database, and how long start-up and shutdown may
/// take.
///
/// ```swift
/// let settings = try ServerSettings(
///     arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
/// ```
public struct ServerSettings: Sendable {
    /// The IPv4 address to listen on.
    public var host = "127.0.0.1"
    /// The port to listen on; `0` asks the system for a free one.
    public var port = 50_051
    /// The database.
    public var database = DatabaseSettings()
    /// How long the eager singletons may take to build once the database client runs.
    public var startupTimeout = Duration.seconds(30)
    /// How long shutdown waits for the RPCs still in flight once the server has stopped.
    public var drainTimeout = Duration.seconds(10)
    /// How long the group's graceful shutdown may take before it cancels the server and the
    /// injector's drain (`ServiceGroupConfiguration.maximumGracefulShutdownDuration`): grpc-swift
    /// waits for the RPCs in flight without a limit of its own.
    public var gracefulShutdownTimeout = Duration.seconds(20)
    /// How long the services may take to return once cancelled before the group ends the process
    /// (`ServiceGroupConfiguration.maximumCancellationDuration`): a handler stuck on an await that
    /// ignores cancellation would otherwise keep the server up for ever.
    public var cancellationTimeout = Duration.seconds(5)

    /// The defaults: `127.0.0.1:50051`, and the database of `.ci/postgres-start`.
    ///
    /// ```swift
    /// var settings = ServerSettings()
    /// settings.port = 0
    /// ```
    public init() {}

    /// Reads the port from the first argument, else `PORT`; and `HOST`, `POSTGRES_HOST`,
    /// `POSTGRES_PORT`, `POSTGRES_USER`, `POSTGRES_PASSWORD`, `POSTGRES_DB` (as
    /// `.ci/postgres-start` prints them), `POSTGRES_SCHEMA` and `POSTGRES_MAX_CONNECTIONS` from
    /// the environment. A variable that is unset keeps its default.
    ///
    /// ```swift
    /// let settings = try ServerSettings(arguments: ["9000"], environment: ["POSTGRES_PORT": "5432"])
    /// ```
    ///
    /// - Parameters:
    ///   - arguments: The command line's arguments, without the program's name.
    ///   - environment: The process's environment.
    /// - Throws: ``SettingsError`` naming the first malformed setting, never its value.
    public init(arguments: [String], environment: [String: String]) throws {
        let reader = SettingsReader(environment: environment)
        host = reader.string("HOST") ?? host
        if let argument = arguments.first {
            port = try SettingsReader.port(argument, key: "port argument")
        } else {
            port = try reader.port("PORT") ?? port
        }
        database.host = reader.string("POSTGRES_HOST") ?? database.host
        database.port = try reader.port("POSTGRES_PORT") ?? database.port
        database.username = reader.string("POSTGRES_USER") ?? database.username
        database.password = reader.string("POSTGRES_PASSWORD") ?? database.password
        database.database = reader.string("POSTGRES_DB") ?? database.database
        database.schema = reader.string("POSTGRES_SCHEMA")
        database.maximumConnections = try reader.positive("POSTGRES_MAX_CONNECTIONS") ?? database.maximumConnections
    }
}
