import Hummingbird
import Logging
import NIOCore
import Objection
import ObjectionHummingbird
import ObjectionServiceLifecycle
import ServiceLifecycle
import UnixSignals

/// Assembles the service from a root injector: the router, the Hummingbird application, and the
/// service group that runs the injector's services, then the application, and stops them in the
/// reverse order.
///
/// ```swift
/// let observability = Observability(logger: logger)
/// let injector = try await InjectorActor(
///     modules: [AppModule(config: AppConfig(), lifecycle: LifecycleLog(), logger: logger)],
///     startup: .deferred,
///     observer: observability.observer(alongside: LoggingObserver(logger: logger))
/// )
/// let app = try await LinkShortenerServer.makeApplication(
///     injector: injector, observability: observability, configuration: .init(), logger: logger)
/// let group = LinkShortenerServer.makeServiceGroup(injector: injector, application: app, logger: logger)
/// try await group.run()
/// ```
public enum LinkShortenerServer {
    /// The routes: `/links` (request scope, transaction scope), `/plain/links` (hand-wired), the
    /// same API described in `openapi.yaml` under `/api` (through ObjectionOpenAPI) and
    /// `/plain/api` (hand-wired), `/stats`, and `/metrics` and `/traces` (what `observability`
    /// recorded), all behind
    /// ``RequestIDMiddleware``, so that every response carries `X-Request-ID`.
    ///
    /// Resolves nothing that needs the database: it is called before the service group runs.
    ///
    /// - Parameters:
    ///   - injector: The root injector.
    ///   - observability: The records of the injector's observer.
    /// - Returns: The router.
    /// - Throws: The injector's errors.
    public static func makeRouter(
        injector: InjectorActor,
        observability: Observability
    ) async throws -> Router<BasicInjectingRequestContext> {
        let router = Router(context: BasicInjectingRequestContext.self)
        // First, so that it wraps every route added after it, and the router's `404`.
        router.add(middleware: RequestIDMiddleware())
        // `GET /health/live` and `/health/ready`, answered before any request scope is opened: a
        // probe works while the injector drains, and reads not ready from the first moment of it.
        router.add(middleware: ObjectionHealthMiddleware(injector))
        // A span and a request counter and timer for every other request, the injected routes and
        // their hand-wired twins alike, through the tracer and the metrics factory bootstrapped
        // in `main.swift` (no-ops where none is, as in the tests): a construction's span is then a
        // child of its request's.
        router.add(middleware: TracingMiddleware())
        router.add(middleware: MetricsMiddleware())
        let config = try await injector.get(AppConfig.self)
        let singletons = LazySingletons(injector: injector)
        LinkRoutes.add(to: router, injector: injector, config: config)
        PlainRoutes.add(to: router, singletons: singletons)
        try OpenAPIRoutes.add(to: router, injector: injector, config: config, singletons: singletons)
        ObservabilityRoutes.add(to: router, observability: observability)
        return router
    }

    /// The Hummingbird application serving ``makeRouter(injector:observability:)``.
    ///
    /// - Parameters:
    ///   - injector: The root injector.
    ///   - observability: The records of the injector's observer, served on `/metrics` and `/traces`.
    ///   - configuration: Where to listen.
    ///   - logger: The server's logger.
    ///   - onServerRunning: Called with the listening channel once the server is up (its local
    ///     address has the port, also when `0` asked the system for one).
    /// - Returns: The application, a service-lifecycle `Service`.
    /// - Throws: The injector's errors.
    public static func makeApplication(
        injector: InjectorActor,
        observability: Observability,
        configuration: ApplicationConfiguration,
        logger: Logger,
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) async throws -> some ApplicationProtocol {
        Application(
            router: try await makeRouter(injector: injector, observability: observability),
            configuration: configuration,
            onServerRunning: onServerRunning,
            logger: logger
        )
    }

    /// A service group that runs the injector's services (the database client), builds its eager
    /// singletons once they run, serves `application`, and shuts down in the reverse order.
    ///
    /// The list is `[InjectorService, application]`, and a group shuts its services down in reverse
    /// order of its list: on graceful shutdown the server stops first and finishes the requests in
    /// flight, whose transactions still have their connections; then `InjectorService` ends the
    /// client's `run()`, which closes its connections at once (it does not wait for leases); then
    /// it disposes the singletons in reverse order of construction.
    ///
    /// - Parameters:
    ///   - injector: The root injector, created with `startup: .deferred`.
    ///   - application: The HTTP server (or any service that uses the injector).
    ///   - logger: The logger of the group and of `InjectorService`.
    ///   - startupTimeout: How long the eager singletons may take to build once the client runs.
    ///   - drainTimeout: How long the injector's shutdown waits for the requests in flight.
    ///   - gracefulShutdownSignals: Signals that start a graceful shutdown; none by default.
    ///   - services: Services that run beside the server and end before the injector: a
    ///     `ReloadingFileProvider` and the `ConfigurationRefresher` that watches it.
    /// - Returns: The group; call `run()`.
    public static func makeServiceGroup(
        injector: InjectorActor,
        application: some Service,
        logger: Logger,
        startupTimeout: Duration = .seconds(30),
        drainTimeout: Duration = InjectorActor.defaultDrainDeadline,
        gracefulShutdownSignals: [UnixSignal] = [],
        services: [any Service] = []
    ) -> ServiceGroup {
        ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    InjectorService(
                        injector, startupTimeout: startupTimeout, drainTimeout: drainTimeout, logger: logger)
                ] + services + [application],
                gracefulShutdownSignals: gracefulShutdownSignals,
                logger: logger
            )
        )
    }
}
