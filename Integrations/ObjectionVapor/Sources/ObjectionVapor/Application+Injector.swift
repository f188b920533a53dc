import Objection
import Vapor

extension Application {
    /// The application's injector, as ``useInjector(_:startupTimeout:drainTimeout:)`` set it; `nil` before.
    ///
    /// ```swift
    /// let config = try await app.injector?.get(Config.self)
    /// ```
    public var injector: InjectorActor? {
        storage[InjectorKey.self]?.injector
    }

    /// Makes `injector` the application's, and runs it in Vapor's lifecycle: started when the
    /// application boots, shut down after its server has stopped.
    ///
    /// Call it once, while configuring the application, before it boots. Then:
    ///
    /// - **Services.** The singletons the modules mark with ObjectionServiceLifecycle's
    ///   `asService()` (a `PostgresClient`) run in the application's lifecycle: started at boot
    ///   before the eager singletons are built, ended at shutdown after the drain, before the
    ///   disposals. The injector runs through ObjectionServiceLifecycle's `InjectorService`.
    /// - **Boot** (`app.asyncBoot()`, which `app.execute()` and `app.startup()` call first)
    ///   calls ``Objection/InjectorActor/start(within:)`` in the handler's `didBootAsync`: an
    ///   injector created with ``Objection/Startup/deferred`` builds its eager singletons there,
    ///   after every handler's `willBoot` and the `didBoot` of the handlers registered before this
    ///   call (a database client's, say), and before the server accepts a request. A failure fails
    ///   the boot with the same error — an ``Objection/InjectionError``
    ///   (``Objection/InjectionError/Code/timedOut`` past `startupTimeout`) or a provider's own —
    ///   and the server never starts. An injector that started when it was created builds nothing
    ///   more.
    /// - **Shutdown** (`app.asyncShutdown()`) stops the HTTP server first — it stops accepting
    ///   connections and waits for the open ones, up to the server's own `shutdownTimeout` — and
    ///   then calls ``Objection/InjectorActor/shutdown(within:)`` with `drainTimeout`, which
    ///   refuses new request scopes and waits for those still open before it disposes the
    ///   singletons in reverse order of construction. That wait matters: Vapor does not cancel a
    ///   handler whose client has gone, and stops waiting for a slow one at its timeout, so either
    ///   may still be running, in its request scope, when the server has stopped; it finishes
    ///   with its singletons intact, up to `drainTimeout`. (Vapor itself would stop the server
    ///   after every lifecycle handler, so disposing in a handler without this would pull the
    ///   singletons from under every request.) A disposal failure, or a drain cut short (naming
    ///   the requests still open and what was still being built), is logged at `error` with the
    ///   application's logger. The handlers registered after this call shut down before it;
    ///   those registered before, after.
    ///
    /// The injector is yours to create, so that its modules, stage, start-up and observer stay
    /// in one place and a test can hand in its own; this call only ties its lifetime to the
    /// application's. Open request scopes with ``ObjectionScopeMiddleware``.
    ///
    /// ```swift
    /// func configure(_ app: Application) async throws {
    ///     let injector = try await InjectorActor(modules: [AppModule()], startup: .deferred)
    ///     app.useInjector(injector, startupTimeout: .seconds(10))
    ///     app.middleware.use(ObjectionScopeMiddleware(injector))
    ///     app.get("orders") { req in try await req.resolve(OrderService.self).list() }
    /// }
    /// ```
    ///
    /// Use `app.asyncShutdown()`: the blocking `app.shutdown()` cannot wait for the disposals,
    /// and leaves the singletons undisposed, with a warning in the log.
    ///
    /// - Parameters:
    ///   - injector: The application's injector.
    ///   - startupTimeout: How long its start-up may take at boot; `nil` for no deadline.
    ///   - drainTimeout: How long its shutdown waits for the requests still in flight and the
    ///     constructions they started; ``Objection/InjectorActor/defaultDrainDeadline`` (10
    ///     seconds) unless you say, `nil` for no deadline.
    public func useInjector(
        _ injector: InjectorActor,
        startupTimeout: Duration? = nil,
        drainTimeout: Duration? = InjectorActor.defaultDrainDeadline
    ) {
        if let existing = storage[InjectorKey.self] {
            logger.warning(
                "useInjector called again: the new injector replaces the first, which is neither started nor shut down"
            )
            existing.replace(with: injector, startupTimeout: startupTimeout, drainTimeout: drainTimeout)
            return
        }
        let handler = InjectorLifecycle(injector: injector, startupTimeout: startupTimeout, drainTimeout: drainTimeout)
        storage[InjectorKey.self] = handler
        lifecycle.use(handler)
    }
}

/// Where ``Application/useInjector(_:startupTimeout:drainTimeout:)`` keeps the injector's lifecycle handler.
struct InjectorKey: StorageKey {
    typealias Value = InjectorLifecycle
}
