import Synchronization
import Testing

@testable import Objection

/// What a refresh waits for ends: a refresh asked from inside its own rebuild, a caller that
/// leaves while another refresh's rebuild runs, a refreshable binding that needs itself.
/// The ledger's refreshable singleton (RefreshFixtures.swift), which the suite's own `Limiter`
/// hides inside it.
fileprivate typealias LedgerLimiter = Limiter

@Suite("Refresh waits that end", .hangLimit)
struct RefreshWaitTests {
    final class Limiter: Sendable {}
    final class Reader: Sendable {}

    @Test("a refresh asked from inside its binding's own rebuild is a cycle, not a wait until the deadline")
    func refreshFromItsOwnRebuild() async throws {
        let box = InjectorBox()
        let injector = try await Self.injector(refreshingFromBuild: 2, in: box)
        // The provider holds the box, which holds the injector: let go at the end.
        defer { box.injector = nil }
        let first = try await injector.get(Limiter.self)
        let error = try await withDeadline(seconds: 60) {
            await injectionError { try await injector.refresh(Limiter.self, within: .seconds(3_600)) }
        }
        #expect(error?.code == .refreshFailed)
        let nested = try #require(error?.problems.first?.underlying as? InjectionError)
        #expect(nested.problems.first?.code == .circularDependency)
        #expect(try await injector.get(Limiter.self) === first)
        #expect(await injector.shutdown(within: nil) == nil)
    }

    @Test("refreshes that start each other's rebuilds (R's provider refreshes Q, Q's refreshes R) are a cycle")
    func refreshCycleThroughAnotherRebuild() async throws {
        let box = InjectorBox()
        let readerBuilds = Counter()
        let limiterBuilds = Counter()
        let injector = try await makeInjector { binder in
            binder.bind(Limiter.self).to { _ in
                if limiterBuilds.increment() == 2, let injector = box.injector {
                    try await injector.refresh(Reader.self, within: .seconds(3_600))
                }
                return Limiter()
            }.asRefreshable()
            binder.bind(Reader.self).to { _ in
                if readerBuilds.increment() == 2, let injector = box.injector {
                    try await injector.refresh(Limiter.self, within: .seconds(3_600))
                }
                return Reader()
            }.asRefreshable()
        }
        box.injector = injector
        defer { box.injector = nil }
        let first = try await injector.get(Limiter.self)
        _ = try await injector.get(Reader.self)
        let error = try await withDeadline(seconds: 60) {
            await injectionError { try await injector.refresh(Limiter.self, within: .seconds(3_600)) }
        }
        #expect(error?.code == .refreshFailed)
        // Each rebuild's failure wraps the refresh its provider asked for, down to the cycle.
        var cause = error
        while let next = cause?.problems.first?.underlying as? InjectionError { cause = next }
        #expect(cause?.code == .circularDependency)
        #expect(cause?.description == "Circular dependency: Limiter -> Reader -> Limiter")
        #expect(try await injector.get(Limiter.self) === first)
        #expect(await injector.shutdown(within: nil) == nil)
    }

    @Test("a singleton whose provider refreshes a binding whose rebuild needs that singleton: a cycle, not a wait")
    func singletonRefreshingWhatNeedsIt() async throws {
        final class Boot: Sendable {}
        let box = InjectorBox()
        let readerBuilds = Counter()
        let injector = try await makeInjector { binder in
            binder.bind(Reader.self).to { resolver in
                if readerBuilds.increment() > 1 { _ = try await resolver.get(Boot.self) }
                return Reader()
            }.asRefreshable()
            binder.bind(Boot.self).to { _ in
                if let injector = box.injector { try await injector.refresh(Reader.self, within: .seconds(3_600)) }
                return Boot()
            }.asSingleton()
        }
        box.injector = injector
        defer { box.injector = nil }
        let first = try await injector.get(Reader.self)
        let error = try await withDeadline(seconds: 60) {
            await injectionError { _ = try await injector.get(Boot.self) }
        }
        // Boot's provider hears its refresh fail: the rebuild of Reader needed Boot.
        #expect(error?.code == .refreshFailed)
        var cause = error
        while let next = cause?.problems.first?.underlying as? InjectionError { cause = next }
        #expect(cause?.code == .circularDependency)
        #expect(cause?.description == "Circular dependency: Reader -> Boot -> Reader")
        #expect(try await injector.get(Reader.self) === first)
        #expect(await injector.shutdown(within: nil) == nil)
    }

    @Test("a task a rebuild's provider started refreshes the same binding later: no cycle once the rebuild ended")
    func watcherStartedInARebuildRefreshesLater() async throws {
        let box = InjectorBox()
        let builds = Counter()
        let watch = Gate()
        let watcher = Mutex<Task<(any Error)?, Never>?>(nil)
        let injector = try await makeInjector { binder in
            binder.bind(Limiter.self).to { _ in
                // Inside the rebuild: a watcher, as a configuration provider starts one.
                if builds.increment() == 2 {
                    let task = Task { () -> (any Error)? in
                        await watch.wait()
                        do {
                            _ = try await box.injector?.refresh(Limiter.self)
                            return nil
                        } catch {
                            return error
                        }
                    }
                    watcher.withLock { $0 = task }
                }
                return Limiter()
            }.asRefreshable()
        }
        box.injector = injector
        defer { box.injector = nil }
        _ = try await injector.get(Limiter.self)
        _ = try await injector.refresh(Limiter.self)
        // The rebuild that started the watcher has ended.
        watch.open()
        let error = await watcher.withLock { $0 }?.value
        #expect(error == nil, "\(String(describing: error))")
        #expect(builds.value == 3)
        #expect(await injector.shutdown(within: nil) == nil)
    }

    @Test("a refresh while shutdown drains is refused, as new request scopes are")
    func refreshWhileDraining() async throws {
        let injector = try await makeInjector { $0.bind(Limiter.self).to { _ in Limiter() }.asRefreshable() }
        _ = try await injector.get(Limiter.self)
        let request = await HeldRequest.open(on: injector)
        let shutdown = Task { await injector.shutdown(within: nil) }
        await waitUntil { injector.phase == .shuttingDown }
        let refused = await injectionError { _ = try await injector.refresh() }
        try await request.finish()
        #expect(await shutdown.value == nil)
        #expect(refused?.code == .shutDown)
    }

    @Test("a refresh waiting for another's rebuild leaves at once when its caller is cancelled")
    func cancelledWaiterLeaves() async throws {
        let rebuilding = Gate()
        let release = Gate()
        let builds = Counter()
        let injector = try await makeInjector { binder in
            binder.bind(Limiter.self).to { _ in
                if builds.increment() == 2 {
                    rebuilding.open()
                    await release.wait()
                }
                return Limiter()
            }.asRefreshable()
        }
        _ = try await injector.get(Limiter.self)
        let generations = try #require(injector.table.binding(for: BindingKey(Limiter.self))?.lifetime.generations)
        // A deadline no busy machine reaches: the rebuild is held until the test releases it.
        let running = Task { try await injector.refresh(Limiter.self, within: .seconds(3_600)) }
        await rebuilding.wait()
        let waiting = Task { try await injector.refresh(Limiter.self, within: .seconds(3_600)) }
        await waitUntil { generations.asked == 2 }
        waiting.cancel()
        let left = try await withDeadline(seconds: 60) { await waiting.result }
        let error = try #require(left.failure as? InjectionError)
        #expect(error.problems.first?.underlying is CancellationError)
        release.open()
        #expect(try await running.value)
        #expect(await injector.shutdown(within: nil) == nil)
    }

    @Test("a refresh asked while the first instance is being built waits for it, then rebuilds it")
    func refreshDuringFirstBuild() async throws {
        let run = try await RefreshDuringFirstBuild(firstLimit: 100)
        #expect(try await run.first.value.limit == 100)
        #expect(try await run.refresh.value)
        #expect(try await run.injector.get(LedgerLimiter.self).limit == 200)
        #expect(run.ledger.builds == 2)
        #expect(await run.injector.shutdown(within: nil) == nil)
        #expect(run.ledger.disposed.sorted() == [1, 2])
    }

    @Test("a refresh that waited for a first build that failed replaces nothing, and the next get builds")
    func refreshDuringFailedFirstBuild() async throws {
        let run = try await RefreshDuringFirstBuild(firstLimit: -1)
        await #expect(throws: (any Error).self) { try await run.first.value }
        #expect(try await run.refresh.value == false)
        #expect(try await run.injector.get(LedgerLimiter.self).limit == 200)
        #expect(await run.injector.shutdown(within: nil) == nil)
    }

    @Test("a refresh asked from inside its binding's first build is a cycle, not a wait for itself")
    func refreshFromTheFirstBuild() async throws {
        let box = InjectorBox()
        let injector = try await Self.injector(refreshingFromBuild: 1, in: box)
        defer { box.injector = nil }
        let error = try await withDeadline(seconds: 60) {
            await injectionError { _ = try await injector.get(Limiter.self) }
        }
        let cycle = error?.problems.first?.underlying as? InjectionError ?? error
        #expect(cycle?.code == .circularDependency)
        #expect(cycle?.path == [BindingKey(Limiter.self), BindingKey(Limiter.self)])
        _ = try await injector.get(Limiter.self)
        #expect(await injector.shutdown(within: nil) == nil)
    }

    @Test("a first build that waits on a refresh of itself from a task of its own: the refresh ends at its deadline")
    func firstBuildWaitingOnItsRefreshThroughATask() async throws {
        let box = InjectorBox()
        let refreshError = Mutex<InjectionError?>(nil)
        let injector = try await makeInjector { binder in
            binder.bind(Limiter.self).to { _ in
                // A task of its own: no frame, so the waits-for graph cannot see the cycle.
                let failure = await Task.detached { () -> InjectionError? in
                    do {
                        _ = try await box.injector?.refresh(Limiter.self, within: .milliseconds(50))
                        return nil
                    } catch {
                        return error as? InjectionError
                    }
                }.value
                refreshError.withLock { $0 = failure }
                return Limiter()
            }.asRefreshable()
        }
        box.injector = injector
        defer { box.injector = nil }
        _ = try await withDeadline(seconds: 60) { try await injector.get(Limiter.self) }
        let failure = try #require(refreshError.withLock { $0 })
        #expect(failure.code == .refreshFailed)
        #expect((failure.problems.first?.underlying as? InjectionError)?.code == .timedOut)
        #expect(await injector.shutdown(within: nil) == nil)
    }

    /// An injector, kept in `box`, whose refreshable `Limiter`'s build `number` refreshes it.
    static func injector(refreshingFromBuild number: Int, in box: InjectorBox) async throws -> InjectorActor {
        let builds = Counter()
        let injector = try await makeInjector { binder in
            binder.bind(Limiter.self).to { _ in
                if builds.increment() == number, let injector = box.injector {
                    try await injector.refresh(Limiter.self, within: .seconds(3_600))
                }
                return Limiter()
            }.asRefreshable()
        }
        box.injector = injector
        return injector
    }

    /// A first build that reads `firstLimit` (negative: it fails), held until a refresh asked
    /// meanwhile, after the limit changed to 200, waits on it too; then released.
    fileprivate struct RefreshDuringFirstBuild {
        let ledger = RefreshLedger()
        let injector: InjectorActor
        let first: Task<LedgerLimiter, any Error>
        let refresh: Task<Bool, any Error>

        init(firstLimit: Int) async throws {
            ledger.limit = firstLimit
            let injector = try await ledger.injector()
            let building = ledger.hold(build: 1)
            first = Task { try await injector.get(LedgerLimiter.self) }
            await building.wait()
            // The first build read its limit; the setting changes, and its watcher refreshes.
            ledger.limit = 200
            refresh = Task { try await injector.refresh(LedgerLimiter.self, within: .seconds(3_600)) }
            let cell = try #require(injector.table.binding(for: BindingKey(LedgerLimiter.self))?.lifetime.cell)
            // The first get waits on its construction, and the refresh with it.
            await waitUntil { cell.construction?.joins == 2 }
            ledger.releaseHeld()
            self.injector = injector
        }
    }

    @Test("a refreshable binding that needs itself is a cycle naming it, not a captured refreshable")
    func refreshableCycle() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Limiter.self).to { r in
                _ = try await r.get(Reader.self)
                return Limiter()
            }.asRefreshable()
            binder.bind(Reader.self).to { r in
                _ = try await r.get(Limiter.self)
                return Reader()
            }
        }
        let error = await injectionError { _ = try await injector.get(Limiter.self) }
        #expect(error?.code == .circularDependency)
        #expect(error?.path == [BindingKey(Limiter.self), BindingKey(Reader.self), BindingKey(Limiter.self)])
    }
}

extension Result {
    /// The error, if this is a failure.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
