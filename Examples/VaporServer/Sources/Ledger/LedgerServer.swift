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
    /// fails the boot. `app.asyncShutdown()` stops the HTTP server, letting the requests in flight
    /// finish and commit, then disposes the singletons in reverse order of construction, the pool
    /// (which closes its connections) after what was built from it.
    ///
    /// - Parameters:
    ///   - app: The application, not yet booted.
    ///   - injector: The root injector, built from ``AppModule`` with `startup: .deferred`.
    ///   - startupTimeout: How long the singletons may take to build at boot.
    /// - Throws: The injector's errors.
    public static func configure(
        _ app: Application,
        injector: InjectorActor,
        startupTimeout: Duration = .seconds(30)
    ) async throws {
        app.useInjector(injector, startupTimeout: startupTimeout)
        let config = try await injector.get(AppConfig.self)
        AccountRoutes.add(to: app, injector: injector, config: config)
        PlainRoutes.add(to: app, singletons: LazySingletons(injector: injector))
    }
}
