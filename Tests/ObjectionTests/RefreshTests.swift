import ObjectionTesting
import Testing

@testable import Objection

/// Refreshable bindings (`asRefreshable()`, `refresh(...)`): what a request sees, when a replaced
/// instance is disposed, and what a failing, hung, concurrent or late refresh does.
@Suite("Refresh without a restart")
struct RefreshTests {
    @Test("a refresh builds the new instance from the settings of now; an unused old one is disposed at once")
    func refreshReplaces() async throws {
        let ledger = RefreshLedger()
        let injector = try await ledger.injector()
        let first = try await injector.get(Limiter.self)
        #expect(try await injector.get(Limiter.self) === first)
        ledger.limit = 5
        #expect(try await injector.refresh() == [BindingKey(Limiter.self)])
        let second = try await injector.get(Limiter.self)
        #expect(second.number == 2 && second.limit == 5)
        #expect(ledger.disposed == [1])
        #expect(await injector.shutdown() == nil)
        #expect(ledger.disposed == [1, 2])
    }

    @Test("a refresh with a deadline of Int64.max seconds rebuilds without crashing the process")
    func hugeDeadline() async throws {
        let ledger = RefreshLedger()
        let injector = try await ledger.injector()
        _ = try await injector.get(Limiter.self)
        #expect(try await injector.refresh(within: .seconds(Int64.max)) == [BindingKey(Limiter.self)])
        #expect(try await injector.get(Limiter.self).number == 2)
        #expect(await injector.shutdown() == nil)
    }

    @Test(
        "shutdown waits for a refresh's rebuild before it disposes the singletons the rebuild uses, one given up too",
        arguments: [false, true])
    func shutdownWaitsForARebuild(givenUp: Bool) async throws {
        struct Reading: Sendable { let number: Int }
        let log = Log()
        let builds = Counter()
        let rebuilding = Counter()
        let release = Gate()
        let injector = try await makeInjector { binder in
            binder.bind(Resource.self).to { _ in Resource("pool disposed", log: log) }.asSingleton()
            binder.bind(Reading.self).to { r in
                let pool = try await r.get(Resource.self)
                let number = builds.increment()
                if number > 1 {
                    rebuilding.increment()
                    await release.wait()
                    log.append(log.values.contains("pool disposed") ? "pool used after its disposal" : "pool used")
                }
                _ = pool
                return Reading(number: number)
            }.asRefreshable()
        }
        _ = try await injector.get(Reading.self)
        let refresh = Task { try await injector.refresh(Reading.self) }
        await waitUntil { rebuilding.value == 1 }
        if givenUp {
            // Its caller leaves; the rebuild's task runs on, using the pool.
            refresh.cancel()
            _ = await refresh.result
        }
        let shutdown = Task { await injector.shutdown(within: nil) }
        await waitUntil { injector.phase != .running }
        release.open()
        _ = await refresh.result
        #expect(await shutdown.value == nil)
        #expect(log.values == ["pool used", "pool disposed"])
    }

    @Test("a request scope keeps the generation it first read; the old one is disposed after it ends")
    func scopeKeepsItsGeneration() async throws {
        let ledger = RefreshLedger()
        let injector = try await ledger.injector()
        _ = try await injector.get(Limiter.self)
        // Opened before the refresh, it first reads the binding after it: the new generation.
        let request = await HeldRequest.open(on: injector) { scope in
            (try await scope.get(Limiter.self), try await scope.get(LimitedHandler.self).limiter)
        }
        try await injector.withScope { scope in
            let before = try await scope.get(Limiter.self)
            try await injector.refresh(Limiter.self)
            #expect(try await scope.get(Limiter.self) === before)
            #expect(try await scope.get(LimitedHandler.self).limiter === before)
            // The root asked from the request's task answers with the request's generation too.
            #expect(try await injector.get(Limiter.self) === before)
            #expect(!before.isDisposed)
        }
        #expect(try await injector.get(Limiter.self).number == 2)
        #expect(ledger.disposed == [1])
        let (read, built) = try await request.finish()
        #expect(read.number == 2 && built === read)
        #expect(await injector.shutdown() == nil)
        #expect(ledger.disposed == [1, 2])
    }

    @Test("a scope that read a generation keeps it through two refreshes; each is disposed exactly once")
    func generationOutlivesTwoRefreshes() async throws {
        let ledger = RefreshLedger()
        let injector = try await ledger.injector()
        let request = await HeldRequest.open(on: injector) { scope in try await scope.get(Limiter.self) }
        let early = Gate()
        let later = Gate()
        let holding = Task {
            try await injector.withScope { scope in
                let limiter = try await scope.get(Limiter.self)
                early.open()
                await later.wait()
                #expect(try await scope.get(Limiter.self) === limiter)
                #expect(!limiter.isDisposed)
                return limiter.number
            }
        }
        await early.wait()
        try await injector.refresh()
        try await injector.refresh()
        #expect(ledger.disposed == [2])
        later.open()
        #expect(try await holding.value == 1)
        #expect(ledger.disposed == [2, 1])
        #expect(try await request.finish().number == 3)
        #expect(await injector.shutdown() == nil)
        #expect(ledger.disposed == [2, 1, 3])
    }

    @Test("a failing rebuild keeps the old instance, degrades health naming the binding, and is retried")
    func failingRebuildKeepsServing() async throws {
        let ledger = RefreshLedger()
        let observer = RecordingObserver()
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Limiter.self).to { _ in try await ledger.build() }.asRefreshable()
                }
            ],
            observer: observer
        )
        let first = try await injector.get(Limiter.self)
        ledger.limit = -1
        let error = await injectionError { try await injector.refresh() }
        #expect(error?.code == .refreshFailed)
        #expect(error?.path == [BindingKey(Limiter.self)])
        #expect(error?.problems.first?.underlying is RefreshLedger.Invalid)
        #expect(try await injector.get(Limiter.self) === first)
        #expect(ledger.disposed.isEmpty)
        #expect(observer.lines.contains("failed Limiter refreshable Invalid"))
        let degraded = await injector.health(within: .seconds(5), cachedFor: .zero)
        #expect(degraded.status == .degraded && degraded.isReady)
        let check = degraded.checks.first { $0.name.contains("Limiter") }
        #expect(check?.status == .degraded)
        #expect(check?.message?.contains("Invalid") == true)
        #expect(check?.message?.contains("-1") == false)
        ledger.limit = 7
        #expect(try await injector.refresh(Limiter.self))
        #expect(try await injector.get(Limiter.self).limit == 7)
        #expect(await injector.health(within: .seconds(5), cachedFor: .zero).status == .healthy)
        #expect(await injector.shutdown() == nil)
        #expect(ledger.disposed == [1, 3])
    }

    @Test("a hung rebuild is cut at the deadline and named; its late value is disposed, never served")
    func hungRebuildIsCut() async throws {
        let ledger = RefreshLedger()
        let injector = try await ledger.injector()
        let first = try await injector.get(Limiter.self)
        _ = ledger.hold(build: 2)
        let error = await injectionError { try await injector.refresh(within: .milliseconds(20)) }
        #expect(error?.code == .refreshFailed)
        #expect(error?.problems.first?.code == .timedOut)
        #expect(error?.problems.first?.message.contains("Limiter") == true)
        #expect(try await injector.get(Limiter.self) === first)
        ledger.releaseHeld()
        await waitUntil { ledger.disposed == [2] }
        #expect(try await injector.get(Limiter.self) === first)
        #expect(await injector.shutdown() == nil)
        #expect(ledger.disposed == [2, 1])
    }

    @Test("concurrent refreshes share rebuilds: one at a time, and the last one asked wins")
    func concurrentRefreshesCoalesce() async throws {
        let ledger = RefreshLedger()
        let injector = try await ledger.injector()
        _ = try await injector.get(Limiter.self)
        let started = ledger.hold(build: 2)
        let running = Task { try await injector.refresh() }
        await started.wait()
        ledger.limit = 42
        let waiting = (0..<5).map { _ in Task { try await injector.refresh() } }
        await waitUntil { injector.refreshesAsked(of: Limiter.self) == 6 }
        ledger.releaseHeld()
        _ = try await running.value
        for refresh in waiting { _ = try await refresh.value }
        #expect(ledger.builds == 3)
        #expect(try await injector.get(Limiter.self).limit == 42)
        #expect(ledger.disposed == [1, 2])
        #expect(await injector.shutdown() == nil)
    }

    @Test(
        "a refresh is refused once shutdown began; one in flight then finishes first, and what it built is disposed with the rest"
    )
    func refreshAndShutdown() async throws {
        let ledger = RefreshLedger()
        let injector = try await ledger.injector()
        _ = try await injector.get(Limiter.self)
        let started = ledger.hold(build: 2)
        let racing = Task { try await injector.refresh() }
        await started.wait()
        // A deadline no busy machine reaches: the shutdown must wait for the rebuild, however long.
        let stopping = Task { await injector.shutdown(within: .seconds(3_600)) }
        await waitUntil { injector.phase != .running }
        ledger.releaseHeld()
        // Shutdown waits for the rebuild, as for any construction in flight: it is handed over.
        #expect(try await racing.value == [BindingKey(Limiter.self)])
        #expect(await stopping.value == nil)
        #expect(ledger.disposed.sorted() == [1, 2])
        let refused = await injectionError { try await injector.refresh() }
        #expect(refused?.code == .shutDown)
    }

    @Test("refreshing a binding never built does nothing; a key that is not refreshable is refused")
    func refreshWithoutInstance() async throws {
        let ledger = RefreshLedger()
        let injector = try await makeInjector { binder in
            binder.bind(Limiter.self).to { _ in try await ledger.build() }.asRefreshable()
            binder.bind(Engine.self).to { _ in Engine() }.asSingleton()
        }
        #expect(try await injector.refresh().isEmpty)
        #expect(try await !injector.refresh(Limiter.self))
        #expect(ledger.builds == 0)
        #expect(await injectionError { try await injector.refresh(Engine.self) }?.code == .scopeViolation)
        #expect(await injectionError { try await injector.refresh(Wheel.self) }?.code == .missingBinding)
        #expect(await injector.shutdown() == nil)
    }

    @Test("a singleton may not hold a refreshable instance: refused at creation, or when its provider asks")
    func singletonCannotCapture() async throws {
        let ledger = RefreshLedger()
        let declared = await injectionError {
            _ = try await makeInjector { binder in
                binder.bind(Limiter.self).to { _ in try await ledger.build() }.asRefreshable()
                binder.bind(LimiterHolder.self).to(LimiterHolder.init).asSingleton()
            }
        }
        #expect(declared?.code == .scopeViolation)
        #expect(declared?.description.contains("Factory<Limiter>") == true)
        let injector = try await makeInjector { binder in
            binder.bind(Limiter.self).to { _ in try await ledger.build() }.asRefreshable()
            binder.bind(LimiterHolder.self).to { r in LimiterHolder(limiter: try await r.get(Limiter.self)) }
                .asSingleton()
        }
        let asked = await injectionError { _ = try await injector.get(LimiterHolder.self) }
        #expect(asked?.code == .scopeViolation)
        #expect(asked?.path == [BindingKey(LimiterHolder.self), BindingKey(Limiter.self)])
        #expect(await injector.shutdown() == nil)
    }

    @Test(
        "1,000 requests during 20 refreshes: each sees one generation; each is built once, disposed once, after its last user"
    )
    func requestsDuringRefreshes() async throws {
        let ledger = RefreshLedger()
        let injector = try await ledger.injector()
        _ = try await injector.get(Limiter.self)
        // Requests that read before the tenth refresh hold their generation through it.
        let midway = Gate()
        try await withDeadline {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<1_000 {
                    group.addTask {
                        try await injector.withScope { scope in
                            let first = try await scope.get(Limiter.self)
                            await midway.wait()
                            let handler = try await scope.get(LimitedHandler.self)
                            await Task.yield()
                            #expect(try await scope.get(Limiter.self) === first)
                            #expect(handler.limiter === first)
                            #expect(!first.isDisposed)
                        }
                    }
                }
                group.addTask {
                    for limit in 1...20 {
                        ledger.limit = limit
                        try await injector.refresh()
                        if limit == 10 { midway.open() }
                        await Task.yield()
                    }
                }
                try await group.waitForAll()
            }
        }
        #expect(ledger.builds == 21)
        #expect(ledger.disposed.sorted() == Array(1...20))
        #expect(await injector.shutdown() == nil)
        #expect(ledger.disposed.sorted() == Array(1...21))
    }
}
