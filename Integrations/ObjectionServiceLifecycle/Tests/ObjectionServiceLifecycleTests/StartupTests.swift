import Objection
import ObjectionServiceLifecycle
import ServiceLifecycle
import TestSupport
import Testing

/// `InjectorService` runs the services before it builds the eager singletons that need them.
@Suite(.timeLimit(.minutes(1))) struct StartupTests {
    @Test func eagerSingletonIsBuiltOnceTheServiceItQueriesRuns() async throws {
        let fixture = try await Fixture()
        let group = ServiceGroup(
            services: [InjectorService(fixture.injector, logger: quietLogger)], logger: quietLogger)

        try await whileRunning(group) {
            try await fixture.repositoryBuilt.wait()
        }

        #expect(
            Array(fixture.log.all.prefix(4)) == [
                "building FakeDatabase",  // resolved to be run
                "database run started",
                "building Repository",  // started once the database runs
                "repository built",
            ]
        )
    }

    @Test func eagerSingletonTimesOutWhenTheClientItQueriesIsNotMarkedAsService() async throws {
        let fixture = try await Fixture(databaseIsService: false)
        let service = InjectorService(fixture.injector, startupTimeout: .milliseconds(100), logger: quietLogger)

        // Outside any group: nothing but the failed start ends run().
        let error = await #expect(throws: InjectionError.self) { try await service.run() }

        #expect(error?.code == .timedOut)
        #expect(error?.problems.map { $0.path.first } == [BindingKey(Repository.self)])
        #expect(error?.description.contains("'Repository' was still being built") == true)
        // run() shut the injector down before it threw.
        await #expect(throws: InjectionError(code: .shutDown, message: "")) {
            try await fixture.injector.get(FakeDatabase.self)
        }
    }

    @Test func failedStartEndsTheServicesAndDisposesBeforeRunThrows() async throws {
        let fixture = try await Fixture(repositoryFails: true)
        let service = InjectorService(fixture.injector, logger: quietLogger)

        await #expect(throws: SecretError.self) { try await service.run() }

        #expect(fixture.endings == ["database run ended", "database disposed"])
    }

    @Test func serviceResolvedByGetIsTheInstanceTheGroupRuns() async throws {
        let fixture = try await Fixture()
        let database = try await fixture.injector.get(FakeDatabase.self)
        let group = ServiceGroup(
            services: [InjectorService(fixture.injector, logger: quietLogger)], logger: quietLogger)

        try await whileRunning(group) {
            try await database.running.wait()
            #expect(try await fixture.injector.get(FakeDatabase.self) === database)
        }

        #expect(database.runCount == 1)
        #expect(fixture.log.all.filter { $0 == "database run started" }.count == 1)
    }

    @Test func cancelledWaitForTheStartReturnsAtOnce() async throws {
        let injector = try await InjectorActor(modules: [], startup: .deferred)
        let service = InjectorService(injector, logger: quietLogger)
        // Never run: the start never ends, and only the caller's cancellation ends its wait.
        let waiting = Task { try await service.waitUntilStarted() }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        await injector.shutdown()
    }

    @Test func injectorWithoutServicesStartsAndWaitsForShutdown() async throws {
        let log = EventLog()
        let built = Signal()
        let module = EagerOnlyModule(log: log, built: built)
        let injector = try await InjectorActor(modules: [module], startup: .deferred)
        let group = ServiceGroup(services: [InjectorService(injector, logger: quietLogger)], logger: quietLogger)

        try await whileRunning(group) {
            try await built.wait()
            #expect(log.all == ["clock built"])
        }

        #expect(log.all == ["clock built", "clock disposed"])
    }
}
