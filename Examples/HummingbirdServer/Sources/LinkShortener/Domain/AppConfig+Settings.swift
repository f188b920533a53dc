import Objection
import ObjectionConfiguration

extension AppConfig {
    /// Reads the settings from the injector's `ConfigReader`, each with the default of
    /// ``init(codeLength:maxURLLength:auditRetention:database:startupTimeout:drainTimeout:)``:
    /// from the environment, `LINK_CODE_LENGTH`, `LINK_MAX_URL_LENGTH`, `AUDIT_RETENTION`,
    /// `STARTUP_TIMEOUT_SECONDS`, `DRAIN_TIMEOUT_SECONDS`, and the database's (see
    /// ``DatabaseConfig/init(settings:)``). A malformed value fails with an `InjectionError`
    /// naming its key and the binding path, never its value.
    ///
    /// ```swift
    /// binder.bind(AppConfig.self).to { r in try await AppConfig(settings: r) }.asSingleton()
    /// ```
    ///
    /// - Parameter r: The resolver of ``AppConfig``'s provider.
    public init(settings r: Resolver) async throws {
        let defaults = AppConfig()
        self.init(
            codeLength: try await r.setting("link.code.length", default: defaults.codeLength),
            maxURLLength: try await r.setting("link.max.url.length", default: defaults.maxURLLength),
            auditRetention: try await r.setting("audit.retention", default: defaults.auditRetention),
            database: try await DatabaseConfig(settings: r),
            startupTimeout: .seconds(try await r.setting("startup.timeout.seconds", default: 30.0)),
            drainTimeout: .seconds(try await r.setting("drain.timeout.seconds", default: 10.0))
        )
    }
}

extension DatabaseConfig {
    /// Reads the database's settings from the injector's `ConfigReader`, each with the default
    /// of `.ci/postgres-start`: from the environment, `POSTGRES_HOST`, `POSTGRES_PORT`,
    /// `POSTGRES_USER`, `POSTGRES_PASSWORD` (a secret), `POSTGRES_DB`, `POSTGRES_SCHEMA` and
    /// `POSTGRES_MAX_CONNECTIONS`.
    ///
    /// ```swift
    /// let database = try await DatabaseConfig(settings: resolver)
    /// ```
    ///
    /// - Parameter r: The resolver of the provider that needs it.
    public init(settings r: Resolver) async throws {
        let defaults = DatabaseConfig()
        let schema = try await r.setting("postgres.schema", default: "")
        self.init(
            host: try await r.setting("postgres.host", default: defaults.host),
            port: try await r.setting("postgres.port", default: defaults.port),
            username: try await r.setting("postgres.user", default: defaults.username),
            password: try await r.setting("postgres.password", default: defaults.password, isSecret: true),
            database: try await r.setting("postgres.db", default: defaults.database),
            schema: schema.isEmpty ? nil : schema,
            maximumConnections: try await r.setting("postgres.max.connections", default: defaults.maximumConnections)
        )
    }
}
