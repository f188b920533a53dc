import Objection
import ObjectionServiceLifecycle
import ServiceLifecycle
import Synchronization
import TestSupport
import Testing

/// The services are built by the injector's start: inside its deadline and its startup event.
extension StartupTests {
    /// Notes each startup and each construction's parent.
    final class ParentRecorder: InjectionObserver {
        let startups = Mutex<[ObservedConstruction.ID]>([])
        let parents = Mutex<[BindingKey: ObservedConstruction.ID?]>([:])

        func constructionStarted(_ construction: ObservedConstruction) {
            parents.withLock { $0[construction.key] = construction.parentID }
        }

        func startupStarted(_ id: ObservedConstruction.ID, singletons: Int) {
            startups.withLock { $0.append(id) }
        }
    }

    @Test func theServicesAreBuiltInsideTheStartUnderItsStartupEvent() async throws {
        let recorder = ParentRecorder()
        let fixture = try await Fixture(observer: recorder)
        let group = ServiceGroup(
            services: [InjectorService(fixture.injector, logger: quietLogger)], logger: quietLogger)

        try await whileRunning(group) {
            try await fixture.repositoryBuilt.wait()
        }

        let startups = recorder.startups.withLock { $0 }
        #expect(startups.count == 1)
        let parents = recorder.parents.withLock { $0 }
        #expect(parents[BindingKey(FakeDatabase.self)] == startups.first)
        #expect(parents[BindingKey(Repository.self)] == startups.first)
    }

    /// A database client whose construction never ends (a connection that never answers).
    struct HangingServiceModule: Module {
        let entered: Signal

        func configure(_ binder: Binder) {
            binder.bind(FakeDatabase.self).to { [entered] _ -> FakeDatabase in
                entered.fire()
                try await Task.sleep(for: .seconds(3_600))
                throw CancellationError()
            }.asService()
        }
    }

    /// A database client whose construction waits at `release` (a connection slow to answer).
    struct HeldServiceModule: Module {
        let entered: Signal
        let release: Gate

        func configure(_ binder: Binder) {
            binder.bind(FakeDatabase.self).to { [entered, release] _ -> FakeDatabase in
                entered.fire()
                await release.pass()
                throw CancellationError()
            }.asService()
        }
    }

    @Test func gracefulShutdownWhileAServiceIsBeingBuiltGivesTheStartUpWithinTheDrainDeadline() async throws {
        let entered = Signal()
        let release = Gate()
        let injector = try await InjectorActor(
            modules: [HeldServiceModule(entered: entered, release: release)], startup: .deferred)
        // No start-up deadline: only the graceful shutdown can end the start.
        let service = InjectorService(injector, drainTimeout: .milliseconds(100), logger: quietLogger)
        let group = ServiceGroup(services: [service], logger: quietLogger)
        let running = Task { try await group.run() }
        try await entered.wait()
        await group.triggerGracefulShutdown()
        // Ends: the start is given up, and the shutdown stops waiting for the construction at
        // the drain deadline (before, run() waited for the construction however long it took).
        _ = await running.result
        #expect(injector.phase == .shutDown)
        await #expect(throws: (any Error).self) { try await service.waitUntilStarted() }
        release.open()
    }

    @Test func aServiceWhoseConstructionHangsFailsTheStartAtItsDeadlineNamingIt() async throws {
        let entered = Signal()
        let injector = try await InjectorActor(
            modules: [HangingServiceModule(entered: entered)], startup: .deferred)
        let service = InjectorService(
            injector, startupTimeout: .milliseconds(100), drainTimeout: .seconds(30), logger: quietLogger)

        // Outside any group: the deadline alone ends run() (before, the services were built before
        // the start, and this waited for ever).
        let error = await #expect(throws: InjectionError.self) { try await service.run() }

        #expect(error?.code == .timedOut)
        #expect(error?.problems.map { $0.path.first } == [BindingKey(FakeDatabase.self)])
        #expect(entered.hasFired)
    }
}
