/// The service's settings: one value, given to ``AppModule`` (a test's) or read by its provider
/// from the environment (``init(settings:)``, the server's).
public struct AppConfig: Sendable {
    /// How many characters a short code has.
    public var codeLength: Int
    /// The longest URL the service accepts.
    public var maxURLLength: Int
    /// How many flushed request audits ``AuditLog`` keeps for inspection.
    public var auditRetention: Int
    /// Where the links are stored.
    public var database: DatabaseConfig
    /// How long the eager singletons may take to build once the database client runs.
    public var startupTimeout: Duration
    /// How long shutdown waits for the requests still in flight before it disposes.
    public var drainTimeout: Duration

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - codeLength: How many characters a short code has.
    ///   - maxURLLength: The longest URL the service accepts.
    ///   - auditRetention: How many flushed request audits ``AuditLog`` keeps.
    ///   - database: Where the links are stored; by default the throwaway database of
    ///     `.ci/postgres-start`.
    ///   - startupTimeout: How long the eager singletons may take to build.
    ///   - drainTimeout: How long shutdown waits for the requests in flight.
    public init(
        codeLength: Int = 7,
        maxURLLength: Int = 2_048,
        auditRetention: Int = 1_000,
        database: DatabaseConfig = DatabaseConfig(),
        startupTimeout: Duration = .seconds(30),
        drainTimeout: Duration = .seconds(10)
    ) {
        self.codeLength = codeLength
        self.maxURLLength = maxURLLength
        self.auditRetention = auditRetention
        self.database = database
        self.startupTimeout = startupTimeout
        self.drainTimeout = drainTimeout
    }
}
