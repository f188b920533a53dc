import Objection
import ObjectionServiceLifecycle
import ServiceLifecycle
import TestSupport
import Testing

/// In `ServiceGroup(services: [injectorService, server])` graceful shutdown reaches the server
/// first, then the injector's services, then the disposal of its singletons.
@Suite(.timeLimit(.minutes(1))) struct ShutdownOrderTests {
    @Test func serverEndsThenTheServicesThenSingletonsAreDisposed() async throws {
        let fixture = try await Fixture()
        let server = FakeServer(log: fixture.log)
        let group = ServiceGroup(
            services: [InjectorService(fixture.injector, logger: quietLogger), server],
            logger: quietLogger
        )

        try await whileRunning(group) {
            try await fixture.repositoryBuilt.wait()
            try await server.running.wait()
            #expect(fixture.endings.isEmpty)
        }

        #expect(
            fixture.endings == [
                "server run ended",
                "database run ended",
                "repository disposed",
                "database disposed",
            ]
        )
    }

    @Test func servicesEndInReverseOrderOfDeclaration() async throws {
        let log = EventLog()
        let injector = try await InjectorActor(modules: [TwoServicesModule(log: log)], startup: .deferred)
        let first = try await injector.get(NamedService.self, named: "first")
        let second = try await injector.get(NamedService.self, named: "second")
        let group = ServiceGroup(services: [InjectorService(injector, logger: quietLogger)], logger: quietLogger)

        try await whileRunning(group) {
            try await first.running.wait()
            try await second.running.wait()
        }

        #expect(log.all.filter { $0.hasSuffix("ended") } == ["second ended", "first ended"])
    }

    @Test func groupCancellationEndsTheServicesAndDisposes() async throws {
        let fixture = try await Fixture()
        let group = ServiceGroup(
            services: [InjectorService(fixture.injector, logger: quietLogger)], logger: quietLogger)

        let run = Task { try await group.run() }
        try await fixture.repositoryBuilt.wait()
        run.cancel()
        _ = await run.result

        #expect(fixture.endings == ["database run ended", "repository disposed", "database disposed"])
        // The group's cancellation does not reach the disposals.
        #expect(!fixture.log.all.contains("repository disposed in a cancelled task"))
    }
}
