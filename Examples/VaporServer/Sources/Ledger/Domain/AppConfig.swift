/// The service's settings: one value, bound with `toInstance` in ``AppModule``.
public struct AppConfig: Sendable {
    /// The largest opening balance or transfer, in cents: bounded so that no sum overflows.
    public var maxAmount: Int64
    /// How many ended requests ``Journal`` keeps for inspection.
    public var journalRetention: Int
    /// Where the accounts are stored.
    public var database: DatabaseConfig
    /// How long the singletons may take to build at boot.
    public var startupTimeout: Duration
    /// How long shutdown waits for the requests still in flight before it disposes.
    public var drainTimeout: Duration

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - maxAmount: The largest opening balance or transfer, in cents.
    ///   - journalRetention: How many ended requests ``Journal`` keeps.
    ///   - database: Where the accounts are stored; by default the throwaway database of
    ///     `.ci/postgres-start`, in the schema `vapor_ledger`.
    ///   - startupTimeout: How long the singletons may take to build at boot.
    ///   - drainTimeout: How long shutdown waits for the requests in flight.
    public init(
        maxAmount: Int64 = 100_000_000_000,
        journalRetention: Int = 1_000,
        database: DatabaseConfig = DatabaseConfig(),
        startupTimeout: Duration = .seconds(30),
        drainTimeout: Duration = .seconds(10)
    ) {
        self.maxAmount = maxAmount
        self.journalRetention = journalRetention
        self.database = database
        self.startupTimeout = startupTimeout
        self.drainTimeout = drainTimeout
    }
}
