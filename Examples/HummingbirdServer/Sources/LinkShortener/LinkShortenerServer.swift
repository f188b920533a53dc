import Hummingbird
import Logging
import NIOCore
import Objection
import ServiceLifecycle
import UnixSignals

/// Assembles the service from a root injector: the router, the Hummingbird application, and the
/// service group that runs it and shuts the injector down after it.
///
/// ```swift
/// let injector = try await InjectorActor(modules: [AppModule(config: AppConfig(), lifecycle: LifecycleLog())])
/// let app = try await LinkShortenerServer.makeApplication(injector: injector, configuration: .init(), logger: logger)
/// let group = LinkShortenerServer.makeServiceGroup(injector: injector, application: app, logger: logger)
/// try await group.run()
/// ```
public enum LinkShortenerServer {
    /// The routes: `/links` (request-scoped), `/plain/links` (hand-wired) and `/stats`, all behind
    /// ``RequestIDMiddleware``, so that every response carries `X-Request-ID`.
    ///
    /// Resolves the root's singletons once for the hand-wired routes, which builds them.
    ///
    /// - Parameter injector: The root injector.
    /// - Returns: The router.
    /// - Throws: The injector's errors.
    public static func makeRouter(injector: InjectorActor) async throws -> Router<AppRequestContext> {
        let router = Router(context: AppRequestContext.self)
        // First, so that it wraps every route added after it, and the router's `404`.
        router.add(middleware: RequestIDMiddleware())
        let config = try await injector.get(AppConfig.self)
        LinkRoutes.add(to: router, injector: injector, config: config)
        PlainRoutes.add(to: router, singletons: try await Singletons(from: injector))
        return router
    }

    /// The Hummingbird application serving ``makeRouter(injector:)``.
    ///
    /// - Parameters:
    ///   - injector: The root injector.
    ///   - configuration: Where to listen.
    ///   - logger: The server's logger.
    ///   - onServerRunning: Called with the listening channel once the server is up (its local
    ///     address has the port, also when `0` asked the system for one).
    /// - Returns: The application, a service-lifecycle `Service`.
    /// - Throws: The injector's errors.
    public static func makeApplication(
        injector: InjectorActor,
        configuration: ApplicationConfiguration,
        logger: Logger,
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) async throws -> some ApplicationProtocol {
        Application(
            router: try await makeRouter(injector: injector),
            configuration: configuration,
            onServerRunning: onServerRunning,
            logger: logger
        )
    }

    /// A service group that runs `application` and, once it has stopped, shuts `injector` down.
    ///
    /// The group shuts services down in reverse order of its list, so the list is
    /// `[InjectorService, application]`: on graceful shutdown the server stops first (finishing
    /// the requests in flight, whose scopes still resolve), then the injector disposes its
    /// singletons.
    ///
    /// - Parameters:
    ///   - injector: The root injector.
    ///   - application: The HTTP server (or any service that uses the injector).
    ///   - logger: The group's logger.
    ///   - gracefulShutdownSignals: Signals that start a graceful shutdown; none by default.
    /// - Returns: The group; call `run()`.
    public static func makeServiceGroup(
        injector: InjectorActor,
        application: some Service,
        logger: Logger,
        gracefulShutdownSignals: [UnixSignal] = []
    ) -> ServiceGroup {
        ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [InjectorService(injector: injector, logger: logger), application],
                gracefulShutdownSignals: gracefulShutdownSignals,
                logger: logger
            )
        )
    }
}
