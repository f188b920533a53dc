import Configuration
import Logging
import Objection
import ObjectionConfiguration
import ObjectionHummingbird
import ObjectionServiceLifecycle
import PostgresNIO

/// The process's bindings: configuration, singletons (the database client among them), and the
/// request- and transaction-scoped services.
///
/// ```swift
/// let injector = try await InjectorActor(
///     modules: [AppModule(config: AppConfig(), lifecycle: LifecycleLog(), logger: logger)],
///     startup: .deferred
/// )
/// ```
///
/// Create the injector with `startup: .deferred` and run it with ObjectionServiceLifecycle's
/// `InjectorService`: the eager ``LinkDatabase`` queries the client, which answers only once its
/// `run()` is running, and the service runs the client first.
///
/// Request values (`RequestIdentifier`, ``AuthenticatedUser``, the request's `Logger`) and the
/// transaction's `PostgresConnection` are only declared here, with `suppliedByScope()`: each
/// request scope binds the first three, each transaction scope the connection. The declaration lets
/// the services that need them be autowired and checked when the injector is built, and makes sure
/// no singleton can capture them.
public struct AppModule: Module {
    /// Where the service's settings come from.
    enum Settings: Sendable {
        /// Given, as a test gives them, with the reader of the refreshable settings (`link.quota`).
        case given(AppConfig, refreshable: ConfigReader)
        /// Read by ``AppConfig``'s provider from this reader, bound in the injector.
        case read(ConfigReader)
    }

    /// Where the service's settings come from.
    let settings: Settings
    /// Where the singletons record their construction and disposal.
    public var lifecycle: LifecycleLog
    /// The logger of the database client and of start-up, outside any request.
    public var logger: Logger

    /// Creates the module.
    ///
    /// - Parameters:
    ///   - config: The service's settings.
    ///   - lifecycle: Where the singletons record their construction and disposal.
    ///   - logger: The logger of the database client and of start-up.
    ///   - refreshable: Where the settings that may change while the server runs are read
    ///     (`link.quota`); none by default, so that their defaults hold.
    public init(
        config: AppConfig,
        lifecycle: LifecycleLog,
        logger: Logger,
        refreshable: ConfigReader = ConfigReader(provider: InMemoryProvider(values: [:]))
    ) {
        self.settings = .given(config, refreshable: refreshable)
        self.lifecycle = lifecycle
        self.logger = logger
    }

    /// Creates the module whose settings are read from `reader` — the environment over the
    /// defaults, in `main.swift` — by ``AppConfig``'s provider: a missing or malformed one fails
    /// start-up with an `InjectionError` naming its key and the binding path, never its value.
    ///
    /// ```swift
    /// AppModule(settings: ConfigReader(provider: EnvironmentVariablesProvider()), lifecycle: lifecycle, logger: logger)
    /// ```
    ///
    /// - Parameters:
    ///   - reader: Where the settings are read.
    ///   - lifecycle: Where the singletons record their construction and disposal.
    ///   - logger: The logger of the database client and of start-up.
    public init(settings reader: ConfigReader, lifecycle: LifecycleLog, logger: Logger) {
        self.settings = .read(reader)
        self.lifecycle = lifecycle
        self.logger = logger
    }

    public func configure(_ binder: Binder) {
        // Values the caller owns: never disposed by the injector.
        switch settings {
        case .given(let config, let refreshable):
            binder.bind(AppConfig.self).toInstance(config)
            ConfigurationModule(refreshable).configure(binder)
        case .read(let reader):
            ConfigurationModule(reader).configure(binder)
            binder.bind(AppConfig.self).to { resolver in try await AppConfig(settings: resolver) }.asSingleton()
        }
        binder.bind(LifecycleLog.self).toInstance(lifecycle)

        // Singletons, autowired from their initializers. Metrics is eager: built (and checked)
        // at start-up.
        binder.bind(Metrics.self).to(Metrics.init).asEagerSingleton()
        binder.bind(CodeGenerator.self).to(CodeGenerator.init).asSingleton()
        binder.bind(AuditLog.self).to(AuditLog.init).asSingleton()
        // Rebuilt without a restart when `link.quota` changes (ConfigurationRefresher).
        binder.bind(QuotaHistory.self).toInstance(QuotaHistory())
        binder.bind(LinkQuota.self)
            .to { r in
                LinkQuota(
                    limit: try await r.setting("link.quota", default: 100), history: try await r.get(QuotaHistory.self))
            }
            .asRefreshable()

        // The database client. A service: InjectorService calls its run() before it builds the
        // eager singletons, and on shutdown ends it (closing its connections) once the server has
        // stopped, then disposes it.
        binder.bind(PostgresClient.self)
            .to { [lifecycle, logger] resolver in
                let config = try await resolver.get(AppConfig.self)
                defer { lifecycle.record(.built(LifecycleLog.postgresClient)) }
                return PostgresClient(configuration: config.database.clientConfiguration, backgroundLogger: logger)
            }
            .asService()
            .onDispose { [lifecycle] _ in
                // Its run() has returned by now: nothing is left to close.
                lifecycle.record(.disposed(LifecycleLog.postgresClient))
            }
        // Creates the table: a query, so built only once the client runs.
        binder.bind(LinkDatabase.self)
            .to { [logger] resolver in
                try await LinkDatabase(client: resolver.get(PostgresClient.self), logger: logger)
            }
            .asEagerSingleton()

        // Bound by each request scope's values, never by the root.
        binder.bind(RequestIdentifier.self).suppliedByScope()
        binder.bind(AuthenticatedUser.self).suppliedByScope()
        binder.bind(Logger.self).suppliedByScope()
        // Bound by each transaction scope, nested in its request's.
        binder.bind(PostgresConnection.self).suppliedByScope()

        // One store per transaction scope, on its connection; the service sees the protocol.
        binder.bind(PostgresLinkStore.self).to(PostgresLinkStore.init).inScope(.scoped)
        binder.bind((any LinkStore).self).to(PostgresLinkStore.self)

        // One audit trail per scope, disposed (flushed) when the scope ends.
        binder.bind(RequestAudit.self).to(RequestAudit.init).inScope(.scoped)

        // The handlers' service: new for each `get`, sharing its scope's store and audit trail.
        binder.bind(LinkService.self).to(LinkService.init)
    }
}
