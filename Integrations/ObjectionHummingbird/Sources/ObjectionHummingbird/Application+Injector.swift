import Hummingbird
import Logging
import Objection
import ObjectionServiceLifecycle

extension Application {
    /// Runs `injector` in the application's own lifecycle — the one `app.runService()` starts —
    /// and holds the server back until the injector has started: the port listens only once the
    /// eager singletons exist, so no request arrives before them.
    ///
    /// It adds an `InjectorService` to the application's services and makes the server's start
    /// wait for it (`beforeServerStarts`). A start-up that fails or passes `startupTimeout` fails
    /// the server's start instead: `runService()` throws the injector's error (naming the binding
    /// and its path) as a `ServiceFailure`, and the process ends, where a request would otherwise
    /// have waited for a start that never came. The application's service group logs the error
    /// it sees by its description: as a `ServiceFailure` that is the injector's message or the
    /// error's type, never a provider's own message, which may carry a secret. Take the error
    /// itself with `ServiceFailure.unwrapped(error)`. On graceful shutdown Hummingbird stops the
    /// server first — it waits for the requests in flight — and then the injector drains, up to
    /// `drainTimeout`, and disposes.
    ///
    /// Why the server waits, rather than answering `503` until ready: a port that does not listen
    /// is what a load balancer and an orchestrator already understand, a start-up that fails ends
    /// the process where the orchestrator sees it, and no request handler needs a branch for it.
    ///
    /// ```swift
    /// let injector = try await InjectorActor(modules: [AppModule()], startup: .deferred)
    /// var app = Application(router: router, configuration: configuration, logger: logger)
    /// app.addServices(postgresClient)
    /// app.addInjector(injector)
    /// try await app.runService()
    /// ```
    ///
    /// - Parameters:
    ///   - injector: The application's root injector, made with `startup: .deferred`.
    ///   - startupTimeout: How long start-up may take; the injector's own deadline unless you say.
    ///   - drainTimeout: How long the shutdown's drain may wait for request scopes still open.
    ///   - logger: Where the injector's start and shutdown are logged; the application's logger
    ///     unless you say.
    /// - Returns: The service, whose `waitUntilStarted()` other start-up code may await too.
    @discardableResult
    public mutating func addInjector(
        _ injector: InjectorActor,
        startupTimeout: Duration? = nil,
        drainTimeout: Duration? = InjectorActor.defaultDrainDeadline,
        logger: Logger? = nil
    ) -> InjectorService {
        let service = InjectorService(
            injector, startupTimeout: startupTimeout, drainTimeout: drainTimeout, logger: logger ?? self.logger)
        // The application's service group logs what a service throws with its description, and
        // a provider's error may carry a secret: the group sees ServiceFailures, described by type.
        addServices(ServiceFailure.wrapping(service))
        beforeServerStarts {
            do { try await service.waitUntilStarted() } catch { throw ServiceFailure(error) }
        }
        return service
    }
}
