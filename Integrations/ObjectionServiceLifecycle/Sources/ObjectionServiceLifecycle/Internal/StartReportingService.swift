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

/// Runs until graceful shutdown or cancellation: keeps the group that runs the injector's services
/// alive when there are none, and, listed first, is the last of them to end.
struct GracefulShutdownWait: Service {
    func run() async {
        // Cancellation ends the wait as well; the group is ending either way.
        try? await gracefulShutdown()
    }
}
