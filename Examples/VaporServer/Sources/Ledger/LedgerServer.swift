import Objection
import ObjectionVapor
import Vapor

/// Configures a Vapor application around a root injector: the injector in the application's
/// lifecycle, the scoped routes, the hand-wired baseline.
///
/// ```swift
/// let app = try await Application.make(.detect())
/// let injector = try await InjectorActor(
///     modules: [AppModule(config: AppConfig(), lifecycle: LifecycleLog(), logger: app.logger)],
///     startup: .deferred
/// )
/// try await LedgerServer.configure(app, injector: injector)
/// try await app.execute()         // boots (builds the singletons), serves until SIGINT/SIGTERM
/// try await app.asyncShutdown()   // stops the server, then disposes the singletons
/// ```
public enum LedgerServer {
    /// Makes `injector` the application's and adds the routes.
    ///
    /// ObjectionVapor's `app.useInjector` starts the injector when the application boots:
    /// ``DatabaseClient`` starts its pool, ``LedgerDatabase`` creates the tables, ``Journal``
    /// opens, all before the server accepts a request; a failure, or `startupTimeout` passing,
    /// fails the boot. `app.asyncShutdown()` stops the HTTP server, lets the requests in flight
    /// finish and commit (the injector drains them, up to the configuration's `drainTimeout`),
    /// then disposes the singletons in reverse order of construction, the pool (which closes its
    /// connections) after what was built from it. `GET /health/live` and `GET /health/ready` answer
    /// the orchestrator's probes, outside any request scope.
    ///
    /// - Parameters:
    ///   - app: The application, not yet booted.
    ///   - injector: The root injector, built from ``AppModule`` with `startup: .deferred`.
    ///   - startupTimeout: How long the singletons may take to build at boot; by default, the
    ///     configuration's.
    /// - Throws: The injector's errors: an `invalidSetting` naming a malformed setting's key.
    public static func configure(
        _ app: Application,
        injector: InjectorActor,
        startupTimeout: Duration? = nil
    ) async throws {
        let config = try await injector.get(AppConfig.self)
        app.useInjector(
            injector, startupTimeout: startupTimeout ?? config.startupTimeout, drainTimeout: config.drainTimeout)
        app.middleware.use(ObjectionHealthMiddleware(injector), at: .beginning)
        AccountRoutes.add(to: app, injector: injector, config: config)
        PlainRoutes.add(to: app, singletons: LazySingletons(injector: injector))
    }
}
