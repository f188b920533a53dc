import Configuration
import Logging
import Objection
import ObjectionConfiguration
import ObjectionVapor
import PostgresNIO

/// The root bindings of the ledger: configuration, the process's singletons, the request's and the
/// transaction's values, and the per-request services.
///
/// ```swift
/// let injector = try await InjectorActor(
///     modules: [AppModule(config: AppConfig(), lifecycle: LifecycleLog(), logger: logger)],
///     startup: .deferred   // built when the application boots: app.useInjector(injector)
/// )
/// ```
public struct AppModule: Module {
    /// Where the service's settings come from.
    enum Settings: Sendable {
        /// Given, as a test gives them.
        case given(AppConfig)
        /// Read by ``AppConfig``'s provider from this reader, bound in the injector.
        case read(ConfigReader)
    }

    /// Where the service's settings come from.
    let settings: Settings
    let lifecycle: LifecycleLog
    let logger: Logger

    /// Creates the module.
    ///
    /// - Parameters:
    ///   - config: The service's settings.
    ///   - lifecycle: Where the singletons record their construction and disposal.
    ///   - logger: The singletons' logger (the database pool's background logger among them).
    public init(config: AppConfig, lifecycle: LifecycleLog, logger: Logger) {
        self.settings = .given(config)
        self.lifecycle = lifecycle
        self.logger = logger
    }

    /// Creates the module whose settings are read from `reader` — the environment over the
    /// defaults, in `main.swift` — by ``AppConfig``'s provider: a missing or malformed one fails
    /// the boot with an `InjectionError` naming its key and the binding path, never its value.
    ///
    /// ```swift
    /// AppModule(settings: ConfigReader(provider: EnvironmentVariablesProvider()), lifecycle: lifecycle, logger: logger)
    /// ```
    ///
    /// - Parameters:
    ///   - reader: Where the settings are read.
    ///   - lifecycle: Where the singletons record their construction and disposal.
    ///   - logger: The logger of the pool and of start-up.
    public init(settings reader: ConfigReader, lifecycle: LifecycleLog, logger: Logger) {
        self.settings = .read(reader)
        self.lifecycle = lifecycle
        self.logger = logger
    }

    public func configure(_ binder: Binder) {
        // Values the caller owns: never disposed by the injector.
        switch settings {
        case .given(let config):
            binder.bind(AppConfig.self).toInstance(config)
        case .read(let reader):
            ConfigurationModule(reader).configure(binder)
            binder.bind(AppConfig.self).to { resolver in try await AppConfig(settings: resolver) }.asSingleton()
        }
        binder.bind(LifecycleLog.self).toInstance(lifecycle)

        // The pool, running from its construction to its disposal, which the injector does last
        // of the singletons that use it. Eager, like what depends on it: built at boot.
        binder.bind(DatabaseClient.self)
            .to { [logger] resolver in
                DatabaseClient(
                    config: try await resolver.get(AppConfig.self),
                    lifecycle: try await resolver.get(LifecycleLog.self),
                    logger: logger
                )
            }
            .asEagerSingleton()
        // Creates the schema and its tables at boot, before the server accepts a request.
        binder.bind(LedgerDatabase.self)
            .to { [logger] resolver in
                try await LedgerDatabase(
                    database: resolver.get(DatabaseClient.self), config: resolver.get(AppConfig.self), logger: logger)
            }
            .asEagerSingleton()
        binder.bind(Journal.self).to(Journal.init).asEagerSingleton()

        // Bound by each request scope's values (ObjectionScopeMiddleware), never by the root.
        binder.bind(RequestIdentifier.self).suppliedByScope()
        binder.bind(Teller.self).suppliedByScope()
        binder.bind(Logger.self).suppliedByScope()
        // Bound by each transaction scope, nested in its request's (Request+Transaction.swift).
        binder.bind(PostgresConnection.self).suppliedByScope()

        // One store per transaction scope, on its connection; the service sees the protocol.
        binder.bind(PostgresAccountStore.self).to(PostgresAccountStore.init).inScope(.scoped)
        binder.bind((any AccountStore).self).to(PostgresAccountStore.self)
        // One journal per scope, written when the scope ends, told whether its work succeeded.
        binder.bind(RequestJournal.self).to(RequestJournal.init).inScope(.scoped)

        // The handlers' service: new for each `get`, sharing its scope's store and journal.
        binder.bind(LedgerService.self).to(LedgerService.init)
    }
}
