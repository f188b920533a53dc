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

    /// A server that hands its request to a task of its own and returns at graceful shutdown at
    /// once, as a server whose client left does: the request outlives the server's `run()`.
    struct DetachingServer: Service {
        let injector: InjectorActor
        let log: EventLog
        let gate: Gate
        let request = Signal()

        func run() async throws {
            let (injector, log, gate, request) = (injector, log, gate, request)
            Task {
                try await injector.withScope(values: { _ in }) { scope in
                    request.fire()
                    await gate.pass()
                    let running = !log.all.contains("database run ended")
                    _ = try await scope.get(FakeDatabase.self).query()
                    log.record("handler queried the database while it \(running ? "ran" : "had stopped")")
                }
            }
            try? await gracefulShutdown()
        }
    }

    @Test func gracefulShutdownDrainsBeforeTheServicesEnd() async throws {
        let fixture = try await Fixture()
        let gate = Gate()
        let server = DetachingServer(injector: fixture.injector, log: fixture.log, gate: gate)
        let service = InjectorService(fixture.injector, drainTimeout: nil, logger: quietLogger)
        let group = ServiceGroup(services: [service, server], logger: quietLogger)
        let run = Task { try await group.run() }
        try await service.waitUntilStarted()
        try await server.request.wait()
        await gate.waitForArrivals(1)
        await group.triggerGracefulShutdown()
        while await refusesScopes(fixture.injector) == false { await Task.yield() }
        #expect(!fixture.log.all.contains("database run ended"), "the services run while the drain waits")
        gate.open()
        try await run.value
        let endings = fixture.log.all.filter {
            $0.hasPrefix("handler") || $0.hasSuffix("ended") || $0.hasSuffix("disposed")
        }
        #expect(
            endings == [
                "handler queried the database while it ran", "database run ended", "repository disposed",
                "database disposed",
            ])
    }

    @Test func waitUntilStartedReportsTheStartAndItsFailure() async throws {
        let fixture = try await Fixture()
        let service = InjectorService(fixture.injector, logger: quietLogger)
        let group = ServiceGroup(services: [service], logger: quietLogger)
        let run = Task { try await group.run() }
        try await service.waitUntilStarted()
        #expect(fixture.injector.phase == .running)
        await group.triggerGracefulShutdown()
        try await run.value

        let failing = try await Fixture(repositoryFails: true)
        let failingService = InjectorService(failing.injector, logger: quietLogger)
        let failingRun = Task { try await ServiceGroup(services: [failingService], logger: quietLogger).run() }
        await #expect(throws: SecretError.self) { try await failingService.waitUntilStarted() }
        _ = await failingRun.result
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
