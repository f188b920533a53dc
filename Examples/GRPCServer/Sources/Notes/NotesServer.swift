import GRPCCore
import GRPCNIOTransportHTTP2
import Logging
import NotesAPI
import Objection
import ObjectionGRPC
import ObjectionServiceLifecycle
import ServiceLifecycle
import UnixSignals

/// Assembles the service from a root injector: the gRPC server, and the service group that runs the
/// injector's services, then the server, and stops them in the reverse order.
///
/// ```swift
/// let injector = try await InjectorActor(
///     modules: [AppModule(settings: settings, lifecycle: LifecycleLog(), logger: logger)], startup: .deferred)
/// let server = NotesServer.makeGRPCServer(injector: injector, settings: settings, logger: logger)
/// let group = NotesServer.makeServiceGroup(
///     injector: injector, serving: GRPCServerService(server), settings: settings, logger: logger,
///     gracefulShutdownSignals: [.sigterm, .sigint])
/// try await group.run()
/// ```
public enum NotesServer {
    /// The gRPC server, plaintext HTTP/2 on `settings.host` and `settings.port`: the notes
    /// service behind `ObjectionScopeInterceptor` (a request scope per RPC), and its hand-wired
    /// twin `PlainNotes` without it.
    ///
    /// Resolves nothing: it is made before the service group runs.
    ///
    /// - Parameters:
    ///   - injector: The root injector.
    ///   - settings: Where to listen.
    ///   - logger: Where errors answered as `internalError` are logged.
    ///   - interceptors: More interceptors for the scoped service, run inside its RPCs' scopes
    ///     (the tests record what is written with one).
    /// - Returns: The server; serve it with ``makeServiceGroup(injector:serving:settings:logger:gracefulShutdownSignals:)``.
    public static func makeGRPCServer(
        injector: InjectorActor,
        settings: ServerSettings,
        logger: Logger,
        interceptors: [any ServerInterceptor] = []
    ) -> GRPCServer<HTTP2ServerTransport.Posix> {
        let scoped = ConditionalInterceptor<any ServerInterceptor>.Subject.services([NotesMethods.service])
        return GRPCServer(
            transport: .http2NIOPosix(
                address: .ipv4(host: settings.host, port: settings.port), transportSecurity: .plaintext),
            services: [NotesService(), PlainNotesService(database: LazyDatabase(injector: injector), logger: logger)],
            interceptorPipeline: [.apply(ObjectionScopeInterceptor(injector, logger: logger), to: scoped)]
                + interceptors.map { .apply($0, to: scoped) }
        )
    }

    /// A service group that runs the injector's services (the database client), builds its eager
    /// singletons once they run, serves `server`, and shuts down in the reverse order.
    ///
    /// The list is `[InjectorService, server]`, and a group shuts its services down in reverse
    /// order of its list: on graceful shutdown the server stops first and finishes the RPCs in
    /// flight, whose transactions still have their connections; then `InjectorService` drains
    /// the injector, ends the client's `run()`, which closes its connections, and disposes the
    /// singletons in reverse order of construction. The whole shutdown is bounded by the
    /// settings' `gracefulShutdownTimeout` (then the group cancels its services) and
    /// `cancellationTimeout` (then it ends the process).
    ///
    /// - Parameters:
    ///   - injector: The root injector, created with `startup: .deferred`.
    ///   - server: The gRPC server as a service: `GRPCServerService(server)`.
    ///   - settings: The start-up and drain deadlines.
    ///   - logger: The logger of the group and of `InjectorService`.
    ///   - gracefulShutdownSignals: Signals that start a graceful shutdown; none by default.
    /// - Returns: The group; call `run()`.
    public static func makeServiceGroup(
        injector: InjectorActor,
        serving server: some Service,
        settings: ServerSettings,
        logger: Logger,
        gracefulShutdownSignals: [UnixSignal] = []
    ) -> ServiceGroup {
        var configuration = ServiceGroupConfiguration(
            services: [
                InjectorService(
                    injector, startupTimeout: settings.startupTimeout, drainTimeout: settings.drainTimeout,
                    logger: logger),
                server,
            ],
            gracefulShutdownSignals: gracefulShutdownSignals,
            logger: logger
        )
        // The bound on the whole shutdown: graceful, then cancelled, then the process ends.
        configuration.maximumGracefulShutdownDuration = settings.gracefulShutdownTimeout
        configuration.maximumCancellationDuration = settings.cancellationTimeout
        return ServiceGroup(configuration: configuration)
    }
}
