/// The service's settings: one value, bound with `toInstance` in ``AppModule``.
public struct AppConfig: Sendable {
    /// How many characters a short code has.
    public var codeLength: Int
    /// The longest URL the service accepts.
    public var maxURLLength: Int
    /// How many flushed request audits ``AuditLog`` keeps for inspection.
    public var auditRetention: Int
    /// Where the links are stored.
    public var database: DatabaseConfig

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - codeLength: How many characters a short code has.
    ///   - maxURLLength: The longest URL the service accepts.
    ///   - auditRetention: How many flushed request audits ``AuditLog`` keeps.
    ///   - database: Where the links are stored; by default the throwaway database of
    ///     `.ci/postgres-start`.
    public init(
        codeLength: Int = 7,
        maxURLLength: Int = 2_048,
        auditRetention: Int = 1_000,
        database: DatabaseConfig = DatabaseConfig()
    ) {
        self.codeLength = codeLength
        self.maxURLLength = maxURLLength
        self.auditRetention = auditRetention
        self.database = database
    }
}
