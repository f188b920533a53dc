import Logging
import Objection
import ServiceLifecycle

/// An injector as a service-lifecycle `Service`: it runs the singletons marked
/// ``ScopedBindingBuilder/asService()``, builds the eager singletons once they run, and on
/// graceful shutdown ends them and then disposes every singleton.
///
/// Create the injector with ``Startup/deferred``, so that its eager singletons (in
/// ``Stage/production``, all of its singletons) are built by this service rather than while the
/// injector is created, before the services they need run. With ``Startup/immediate`` they are
/// already built, and the start this service makes builds nothing.
///
/// List it *before* the services that use the injector, such as the HTTP server. A `ServiceGroup`
/// shuts its services down in reverse order, so the server stops first and finishes its requests;
/// then this service ends the services it runs, gracefully and in reverse order of declaration;
/// then it disposes the singletons, in reverse order of construction.
///
/// ```swift
/// let injector = try await InjectorActor(
///     modules: [AppModule()],
///     startup: .deferred,
///     observer: LoggingObserver(logger: logger)
/// )
/// let server = Application(router: buildRouter(injector))
/// let group = ServiceGroup(
///     services: [InjectorService(injector, startupTimeout: .seconds(30), logger: logger), server],
///     gracefulShutdownSignals: [.sigterm, .sigint],
///     logger: logger
/// )
/// try await group.run()
/// ```
///
/// The server starts alongside this service, not after it: what it resolves on a request before
/// the eager singletons are built is built on first use, as always.
public struct InjectorService: Service, CustomStringConvertible {
    /// The injector whose services this runs and whose singletons it disposes.
    let injector: InjectorActor
    /// How long the eager singletons may take to build once the services run.
    let startupTimeout: Duration?
    /// How long the injector's shutdown waits for the request scopes still open.
    let drainTimeout: Duration?
    /// Where the lifecycle is logged, and the logger of the group that runs the services.
    let logger: Logger
    /// Filled in by `run()`, for ``description``.
    let serviceNames = ResolvedServiceNames()
    /// How the start ended, for ``waitUntilStarted()``.
    let startOutcome = StartOutcome()

    /// Creates the service for `injector`.
    ///
    /// ```swift
    /// let service = InjectorService(injector, startupTimeout: .seconds(30), logger: logger)
    /// ```
    ///
    /// - Parameters:
    ///   - injector: The injector to start and shut down, created with ``Startup/deferred``.
    ///   - startupTimeout: How long building the eager singletons may take once the services run;
    ///     `nil` for no deadline. Past it, `run()` throws ``InjectionError/Code/timedOut`` naming
    ///     each singleton still being built.
    ///   - drainTimeout: How long the injector's shutdown waits for the request scopes still open
    ///     (a handler still running when the server has stopped, or when the group escalated to
    ///     cancelling its services) and the constructions in flight before it disposes;
    ///     ``InjectorActor/defaultDrainDeadline`` (10 seconds) unless you say, `nil` for none.
    ///   - logger: Where the service logs its steps (at `debug`) and failures it does not throw
    ///     (at `error`); also the logger of the inner group that runs the services.
    public init(
        _ injector: InjectorActor,
        startupTimeout: Duration? = nil,
        drainTimeout: Duration? = InjectorActor.defaultDrainDeadline,
        logger: Logger
    ) {
        self.injector = injector
        self.startupTimeout = startupTimeout
        self.drainTimeout = drainTimeout
        self.logger = logger
    }

    /// Waits until `run()` has started the injector — its services running, its eager singletons
    /// built — for a host that must not serve before (a framework's boot). Throws what ended the
    /// start instead: the services' resolution error, the start's error, or `CancellationError`
    /// when the group ended before the start finished, or when the caller is cancelled (which
    /// stops its wait only; the start goes on).
    ///
    /// ```swift
    /// let service = InjectorService(injector, logger: logger)
    /// let running = Task { try await ServiceGroup(services: [service], logger: logger).run() }
    /// try await service.waitUntilStarted()
    /// ```
    public func waitUntilStarted() async throws {
        try await startOutcome.wait()
    }

    /// Names the services it runs, by type, once `run()` has resolved them, and the injector's
    /// stage: `InjectorService(services: [PostgresClient], stage: production)`, or
    /// `InjectorService(stage: production)` before. Never a value.
    ///
    /// ```swift
    /// logger.info("running \(service)")
    /// ```
    public var description: String {
        var parts: [String] = []
        if let names = serviceNames.value {
            parts.append("services: [\(names.joined(separator: ", "))]")
        }
        parts.append("stage: \(injector.stage)")
        return "InjectorService(\(parts.joined(separator: ", ")))"
    }
}
