/// The service's settings: one value, bound with `toInstance` in ``AppModule``.
public struct AppConfig: Sendable {
    /// The largest opening balance or transfer, in cents: bounded so that no sum overflows.
    public var maxAmount: Int64
    /// How many ended requests ``Journal`` keeps for inspection.
    public var journalRetention: Int
    /// Where the accounts are stored.
    public var database: DatabaseConfig

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - maxAmount: The largest opening balance or transfer, in cents.
    ///   - journalRetention: How many ended requests ``Journal`` keeps.
    ///   - database: Where the accounts are stored; by default the throwaway database of
    ///     `.ci/postgres-start`, in the schema `vapor_ledger`.
    public init(
        maxAmount: Int64 = 100_000_000_000,
        journalRetention: Int = 1_000,
        database: DatabaseConfig = DatabaseConfig()
    ) {
        self.maxAmount = maxAmount
        self.journalRetention = journalRetention
        self.database = database
    }
}
