import GRPCCore
import ServiceLifecycle

/// A grpc-swift server as a swift-service-lifecycle `Service`: it serves until the group shuts
/// down gracefully, then stops accepting RPCs and returns once those in flight have ended.
///
/// List it after ObjectionServiceLifecycle's `InjectorService`, so that the group starts the
/// injector (its services, then its eager singletons) beside it and, shutting down in reverse
/// order, stops the server first: the RPCs in flight finish with their singletons intact, then the
/// injector drains — waiting for any scope still open, such as a stream still being written —
/// and disposes.
///
/// ```swift
/// let server = GRPCServer(transport: transport, services: [OrderService()],
///                         interceptors: [ObjectionScopeInterceptor(injector, logger: logger)])
/// let group = ServiceGroup(
///     services: [InjectorService(injector, logger: logger), GRPCServerService(server)],
///     gracefulShutdownSignals: [.sigterm],
///     logger: logger
/// )
/// try await group.run()
/// ```
///
/// grpc-swift's own graceful shutdown tells the RPCs in flight through their context's
/// cancellation handle: a handler that waits on it (`context.cancellation.cancelled`) ends there,
/// one that does not finishes its work. It waits for them without a limit; bound it with the
/// group's configuration, as for any service:
///
/// ```swift
/// var configuration = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm], logger: logger)
/// configuration.maximumGracefulShutdownDuration = .seconds(20)   // then the server and the drain are cancelled
/// configuration.maximumCancellationDuration = .seconds(5)        // then the group ends the process
/// ```
public struct GRPCServerService<Transport: ServerTransport>: Service {
    /// The server it runs.
    ///
    /// ```swift
    /// let service = GRPCServerService(server)
    /// assert(service.server === server)
    /// ```
    public let server: GRPCServer<Transport>

    /// Wraps `server`, which must not be served elsewhere.
    ///
    /// ```swift
    /// let service = GRPCServerService(GRPCServer(transport: transport, services: services))
    /// ```
    public init(_ server: GRPCServer<Transport>) {
        self.server = server
    }

    /// Serves until graceful shutdown, then until the RPCs in flight have ended.
    ///
    /// ```swift
    /// try await GRPCServerService(server).run()   // a ServiceGroup calls it
    /// ```
    public func run() async throws {
        try await withGracefulShutdownHandler {
            try await server.serve()
        } onGracefulShutdown: {
            server.beginGracefulShutdown()
        }
    }
}
