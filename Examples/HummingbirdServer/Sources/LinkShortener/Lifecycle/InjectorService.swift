import Logging
import Objection
import ServiceLifecycle

/// Shuts the injector down as part of a service-lifecycle `ServiceGroup`.
///
/// `run()` waits for the group's graceful shutdown (or cancellation), then disposes the
/// injector's singletons in reverse order of construction. A `ServiceGroup` shuts its services
/// down in reverse order of its list, so list this service *before* the HTTP server: the server
/// stops taking requests and finishes those in flight, and only then is the injector shut down.
public struct InjectorService: Service {
    /// The injector to shut down.
    public let injector: InjectorActor
    /// Where a failed disposal is reported.
    public let logger: Logger

    /// Creates the service.
    ///
    /// - Parameters:
    ///   - injector: The injector to shut down.
    ///   - logger: Where a failed disposal is reported.
    public init(injector: InjectorActor, logger: Logger) {
        self.injector = injector
        self.logger = logger
    }

    public func run() async throws {
        // Cancellation (the group failing) also ends the wait: dispose in every case.
        try? await gracefulShutdown()
        if let failure = await injector.shutdown() {
            logger.error("Injector shutdown: \(failure)")
        }
    }
}

extension InjectorService: CustomStringConvertible {
    public var description: String { "InjectorService" }
}
