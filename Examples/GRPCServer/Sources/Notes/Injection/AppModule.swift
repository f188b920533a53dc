import Logging
import Objection
import ObjectionGRPC
import ObjectionServiceLifecycle
import PostgresNIO

/// The process's bindings: the settings, the database client and the table it needs, and the
/// RPC- and transaction-scoped services.
///
/// ```swift
/// let injector = try await InjectorActor(
///     modules: [AppModule(settings: ServerSettings(), lifecycle: LifecycleLog(), logger: logger)],
///     startup: .deferred
/// )
/// ```
///
/// Create the injector with `startup: .deferred` and run it with ObjectionServiceLifecycle's
/// `InjectorService`: the eager `NotesDatabase` queries the client, which answers only once its
/// `run()` is running, and the service runs the client first.
///
/// The RPC's values (`RPCRequestID`, bound by `ObjectionScopeInterceptor`) and the transaction's
/// (`PostgresConnection`, its `Logger`) are only declared here, with `suppliedByScope()`: the
/// services that need them are autowired and checked when the injector is built, and no singleton
/// can capture them.
public struct AppModule: Module {
    /// The server's settings; the database client is made from them.
    public var settings: ServerSettings
    /// Where the singletons record their construction and disposal.
    public var lifecycle: LifecycleLog
    /// The logger of the database client and of the transactions.
    public var logger: Logger

    /// Creates the module.
    ///
    /// ```swift
    /// AppModule(settings: try ServerSettings(arguments: [], environment: environment), lifecycle: LifecycleLog(), logger: logger)
    /// ```
    ///
    /// - Parameters:
    ///   - settings: The server's settings.
    ///   - lifecycle: Where the singletons record their construction and disposal.
    ///   - logger: The logger of the database client and of the transactions.
    public init(settings: ServerSettings, lifecycle: LifecycleLog, logger: Logger) {
        self.settings = settings
        self.lifecycle = lifecycle
        self.logger = logger
    }

    public func configure(_ binder: Binder) {
        // Values the caller owns: never disposed by the injector.
        binder.bind(ServerSettings.self).toInstance(settings)
        binder.bind(LifecycleLog.self).toInstance(lifecycle)

        // The database client. A service: InjectorService calls its run() before it builds the
        // eager singletons, and on shutdown ends it (closing its connections) once the server has
        // stopped, then disposes it.
        binder.bind(PostgresClient.self)
            .to { [settings, lifecycle, logger] _ in
                defer { lifecycle.record(.built(LifecycleLog.postgresClient)) }
                return PostgresClient(configuration: settings.database.clientConfiguration, backgroundLogger: logger)
            }
            .asService()
            .onDispose { [lifecycle] _ in lifecycle.record(.disposed(LifecycleLog.postgresClient)) }
        // Creates the table: a query, so built only once the client runs.
        binder.bind(NotesDatabase.self)
            .to { [lifecycle, logger] resolver in
                let database = try await NotesDatabase(client: resolver.get(PostgresClient.self), logger: logger)
                lifecycle.record(.built(LifecycleLog.notesDatabase))
                return database
            }
            .asEagerSingleton()
            .onDispose { [lifecycle] _ in lifecycle.record(.disposed(LifecycleLog.notesDatabase)) }

        // Bound by each RPC's scope (the interceptor), never by the root.
        binder.bind(RPCRequestID.self).suppliedByScope()
        // Bound by each transaction scope, nested in its RPC's.
        binder.bind(PostgresConnection.self).suppliedByScope()
        binder.bind(Logger.self).suppliedByScope()

        // One store per transaction scope, on its connection; the notebook sees the protocol.
        binder.bind(PostgresNoteStore.self).to(PostgresNoteStore.init).inScope(.scoped)
        binder.bind((any NoteStore).self).to(PostgresNoteStore.self)

        // The handlers' service: new for each `get`, sharing its scope's store.
        binder.bind(Notebook.self).to(Notebook.init)
    }
}
