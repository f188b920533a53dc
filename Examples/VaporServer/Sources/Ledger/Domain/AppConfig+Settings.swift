import Objection
import ObjectionConfiguration

extension AppConfig {
    /// Reads the settings from the injector's `ConfigReader`, each with the default of
    /// ``init(maxAmount:journalRetention:database:startupTimeout:drainTimeout:)``: from the
    /// environment, `LEDGER_MAX_AMOUNT`, `JOURNAL_RETENTION`, `STARTUP_TIMEOUT_SECONDS`,
    /// `DRAIN_TIMEOUT_SECONDS`, and the database's (see ``DatabaseConfig/init(settings:)``). A
    /// malformed value fails with an `InjectionError` naming its key and the binding path, never
    /// its value.
    ///
    /// ```swift
    /// binder.bind(AppConfig.self).to { r in try await AppConfig(settings: r) }.asSingleton()
    /// ```
    ///
    /// - Parameter r: The resolver of ``AppConfig``'s provider.
    public init(settings r: Resolver) async throws {
        let defaults = AppConfig()
        self.init(
            maxAmount: Int64(try await r.setting("ledger.max.amount", default: Int(defaults.maxAmount))),
            journalRetention: try await r.setting("journal.retention", default: defaults.journalRetention),
            database: try await DatabaseConfig(settings: r),
            startupTimeout: .seconds(try await r.setting("startup.timeout.seconds", default: 30.0)),
            drainTimeout: .seconds(try await r.setting("drain.timeout.seconds", default: 10.0))
        )
    }
}

extension DatabaseConfig {
    /// Reads the database's settings from the injector's `ConfigReader`, each with the default
    /// of `.ci/postgres-start`: from the environment, `POSTGRES_HOST`, `POSTGRES_PORT`,
    /// `POSTGRES_USER`, `POSTGRES_PASSWORD` (a secret), `POSTGRES_DB`, `LEDGER_SCHEMA` and
    /// `POSTGRES_MAX_CONNECTIONS`.
    ///
    /// ```swift
    /// let database = try await DatabaseConfig(settings: resolver)
    /// ```
    ///
    /// - Parameter r: The resolver of the provider that needs it.
    public init(settings r: Resolver) async throws {
        let defaults = DatabaseConfig()
        self.init(
            host: try await r.setting("postgres.host", default: defaults.host),
            port: try await r.setting("postgres.port", default: defaults.port),
            username: try await r.setting("postgres.user", default: defaults.username),
            password: try await r.setting("postgres.password", default: defaults.password, isSecret: true),
            database: try await r.setting("postgres.db", default: defaults.database),
            schema: try await r.setting("ledger.schema", default: defaults.schema),
            maximumConnections: try await r.setting("postgres.max.connections", default: defaults.maximumConnections)
        )
    }
}
