import Logging
import Objection
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
    let config: AppConfig
    let lifecycle: LifecycleLog
    let logger: Logger

    /// Creates the module.
    ///
    /// - Parameters:
    ///   - config: The service's settings.
    ///   - lifecycle: Where the singletons record their construction and disposal.
    ///   - logger: The singletons' logger (the database pool's background logger among them).
    public init(config: AppConfig, lifecycle: LifecycleLog, logger: Logger) {
        self.config = config
        self.lifecycle = lifecycle
        self.logger = logger
    }

    public func configure(_ binder: Binder) {
        // Values the caller owns: never disposed by the injector.
        binder.bind(AppConfig.self).toInstance(config)
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
