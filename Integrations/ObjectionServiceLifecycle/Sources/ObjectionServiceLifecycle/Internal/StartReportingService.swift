import Objection
import ServiceLifecycle

/// One of the injector's services as ``InjectorService`` runs it: tells a ``StartGate`` that its
/// `run()` has been called, and hands the inner group its error as a ``ServiceFailure``.
struct StartReportingService: Service {
    let base: any Service
    let gate: StartGate

    func run() async throws {
        gate.arrive()
        do {
            try await base.run()
        } catch {
            throw ServiceFailure(error)
        }
    }
}

/// A service's error as the inner group that runs the injector's services sees it: that group
/// logs an error's description ("Service threw error", at `debug`), which for a provider's or a
/// service's own error may carry a connection string or a token. This one describes itself as
/// ``LoggableError`` does, by type; ``InjectorService`` unwraps it, so `run()` still throws the
/// service's error unchanged.
struct ServiceFailure: Error, CustomStringConvertible {
    let underlying: any Error

    init(_ underlying: any Error) {
        self.underlying = underlying
    }

    var description: String { LoggableError(underlying).description }

    /// `error` unwrapped if it is a ``ServiceFailure``.
    static func unwrapped(_ error: any Error) -> any Error {
        (error as? ServiceFailure)?.underlying ?? error
    }
}

/// Runs until graceful shutdown or cancellation: keeps the group that runs the injector's services
/// alive when there are none, and, listed first, is the last of them to end.
struct GracefulShutdownWait: Service {
    func run() async {
        // Cancellation ends the wait as well; the group is ending either way.
        try? await gracefulShutdown()
    }
}
