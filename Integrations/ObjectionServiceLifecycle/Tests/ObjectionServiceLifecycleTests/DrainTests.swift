import Logging
import Objection
import ObjectionServiceLifecycle
import ServiceLifecycle
import TestSupport
import Testing

/// When the group's graceful shutdown escalates to cancelling every service, `InjectorService`
/// still drains: a handler that goes on running in its request scope keeps its singletons.
@Suite(.timeLimit(.minutes(1))) struct DrainTests {
    /// A server whose request in flight ignores cancellation: it holds a request scope open on the
    /// injector until `gate` opens, then uses a singleton from it.
    struct StubbornServer: Service {
        let injector: InjectorActor
        let log: EventLog
        let gate: Gate

        func run() async throws {
            try await injector.withScope(values: { _ in }) { scope in
                await gate.pass()
                let repository = try await scope.get(Repository.self)
                log.record("handler used \(type(of: repository))")
            }
        }
    }

    @Test func escalatedCancellationStillDrainsTheRequestInFlight() async throws {
        let fixture = try await Fixture()
        let gate = Gate()
        let server = StubbornServer(injector: fixture.injector, log: fixture.log, gate: gate)
        var configuration = ServiceGroupConfiguration(
            services: [
                .init(service: InjectorService(fixture.injector, drainTimeout: nil, logger: quietLogger)),
                .init(service: server),
            ],
            logger: quietLogger
        )
        // Escalates at once: every service is cancelled while the handler still runs.
        configuration.maximumGracefulShutdownDuration = .zero
        let group = ServiceGroup(configuration: configuration)
        let run = Task { try await group.run() }
        try await fixture.repositoryBuilt.wait()
        await gate.waitForArrivals(1)
        await group.triggerGracefulShutdown()
        // The injector's shutdown has begun once it refuses a new request scope.
        while await refusesScopes(fixture.injector) == false { await Task.yield() }
        #expect(!fixture.log.all.contains("repository disposed"), "nothing disposed under the handler")
        gate.open()
        _ = await run.result
        let endings = fixture.log.all.filter { $0.hasPrefix("handler") || $0.hasSuffix("disposed") }
        #expect(endings == ["handler used Repository", "repository disposed", "database disposed"])
    }

    /// Whether the injector refuses a new request scope because it is shutting down.
    private func refusesScopes(_ injector: InjectorActor) async -> Bool {
        do {
            try await injector.withScope(values: { _ in }) { _ in }
            return false
        } catch {
            return (error as? InjectionError)?.code == .shutDown
        }
    }
}
