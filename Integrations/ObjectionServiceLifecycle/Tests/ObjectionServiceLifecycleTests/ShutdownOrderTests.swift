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

/// A graceful shutdown while the injector is still starting.
extension ShutdownOrderTests {
    /// An eager singleton whose warm-up uses the database and does not stop when cancelled.
    final class WarmCache: AsyncDisposable {
        let log: EventLog

        init(log: EventLog) {
            self.log = log
            log.record("cache built")
        }

        func dispose() async throws { log.record("cache disposed") }
    }

    struct WarmingModule: Module {
        let log: EventLog
        let warmUp: Gate

        func configure(_ binder: Binder) {
            binder.bind(FakeDatabase.self).to { [log] _ in FakeDatabase(log: log) }.asService()
            binder.bind(WarmCache.self)
                .to { [log, warmUp] r in
                    _ = try await r.get(FakeDatabase.self).query()
                    await warmUp.pass()
                    return WarmCache(log: log)
                }
                .asEagerSingleton()
        }
    }

    @Test func gracefulShutdownDuringStartupWaitsForTheConstructionInFlight() async throws {
        let log = EventLog()
        let warmUp = Gate()
        let injector = try await InjectorActor(modules: [WarmingModule(log: log, warmUp: warmUp)], startup: .deferred)
        let group = ServiceGroup(services: [InjectorService(injector, logger: quietLogger)], logger: quietLogger)
        let run = Task { try await group.run() }
        // The cache's construction is in flight, using the database.
        await warmUp.waitForArrivals(1)
        await group.triggerGracefulShutdown()
        // The start is given up and the injector's shutdown has begun: it must wait for the cache.
        while injector.phase != .shutDown { await Task.yield() }
        warmUp.open()
        _ = await run.result
        let endings = log.all.filter { $0.hasSuffix("built") || $0.hasSuffix("disposed") }
        #expect(endings == ["cache built", "cache disposed", "database disposed"])
    }
}
