import Testing

@testable import Objection

/// Cancellation storms: many callers of one slow construction, many of them cancelled, and a failure that
/// reaches every waiter.
@Suite("Hostile: cancellation", .timeLimit(.minutes(2)))
struct HostileCancellationTests {
    @Test(
        "1,000 gets of a slow singleton, half cancelled at random points: one construction, one instance",
        arguments: ObserverKind.allCases)
    func singletonCancellationStorm(kind: ObserverKind) async throws {
        let (observer, strict) = kind.make()
        let gated = GatedEngine()
        let (started, release, built) = (gated.started, gated.release, gated.built)
        let injector = try await gated.injector(observer: observer)
        let results = try await bounded {
            var rng = SeededGenerator(seed: 7)
            let order = Array(0..<1000).shuffled(using: &rng)
            let cancelled = Set(order.prefix(500))
            var tasks: [Task<Engine, any Error>] = []
            for i in 0..<1000 {
                tasks.append(Task { try await injector.get(Engine.self) })
                // Some are cancelled before they even ask.
                if cancelled.contains(i), i % 3 == 0 { tasks[i].cancel() }
            }
            await started.wait()
            for (n, i) in order.prefix(500).enumerated() {
                tasks[i].cancel()
                if n % 7 == 0 { await Task.yield() }
            }
            release.open()
            var results: [(cancelled: Bool, result: Result<Engine, any Error>)] = []
            for (i, task) in tasks.enumerated() { results.append((cancelled.contains(i), await task.result)) }
            return results
        }
        var instances = Set<ObjectIdentifier>()
        var cancellations = 0
        for (wasCancelled, result) in results {
            switch result {
            case .success(let engine): instances.insert(ObjectIdentifier(engine))
            case .failure(let error):
                #expect(wasCancelled, "a task that was not cancelled failed: \(error)")
                #expect(error is CancellationError, "\(error)")
                cancellations += 1
            }
        }
        #expect(built.value == 1)
        #expect(instances.count == 1)
        let later = try await injector.get(Engine.self)
        #expect(instances == [ObjectIdentifier(later)])
        for o in strict {
            #expect(o.finalProblems() == [])
            #expect(o.count(\.startedKeys, of: Engine.self) == (o.successes ? 1 : 0))
            #expect(o.count(\.failedKeys, of: Engine.self) == 0)
            #expect(o.snapshot.failedGets.count == cancellations)
        }
    }

    @Test(
        "1,000 tasks of one request get a slow scoped instance, half cancelled, the builder among them",
        arguments: ObserverKind.allCases)
    func scopedCancellationStorm(kind: ObserverKind) async throws {
        let (observer, strict) = kind.make()
        let started = Gate()
        let release = Gate()
        let attempts = Counter()
        let pool = ResourcePool()
        let root = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(CountedResource.self).to { _ in
                        attempts.increment()
                        started.open()
                        await release.wait()
                        try Task.checkCancellation()
                        return pool.make()
                    }.inScope(.scoped)
                }
            ],
            observer: observer
        )
        let outcome = try await bounded {
            try await root.withScope(values: { _ in }) { scope in
                var rng = SeededGenerator(seed: 11)
                var tasks: [Task<CountedResource, any Error>] = []
                for _ in 0..<1000 { tasks.append(Task { try await scope.get(CountedResource.self) }) }
                await started.wait()
                // Cancel the first (most likely the builder) and 499 others at random.
                var victims = Set([0])
                while victims.count < 500 { victims.insert(Int.random(in: 0..<1000, using: &rng)) }
                for (n, i) in victims.sorted().enumerated() {
                    tasks[i].cancel()
                    if n % 5 == 0 { await Task.yield() }
                }
                release.open()
                var survivors = Set<ObjectIdentifier>()
                var failures: [String] = []
                for (i, task) in tasks.enumerated() {
                    switch await task.result {
                    case .success(let r): survivors.insert(ObjectIdentifier(r))
                    case .failure(let error):
                        if !victims.contains(i) || !(error is CancellationError) {
                            failures.append("task \(i) (cancelled: \(victims.contains(i))): \(error)")
                        }
                    }
                }
                return (survivors, failures)
            }
        }
        #expect(outcome.1 == [])
        #expect(outcome.0.count == 1, "the request's surviving tasks got \(outcome.0.count) instances")
        let made = pool.made
        #expect(made.count <= 1)
        for r in made { #expect(r.disposals.value == 1) }
        for o in strict {
            #expect(o.finalProblems() == [])
            let s = o.snapshot
            #expect(s.finishedKeys.count == (o.successes ? made.count : 0))
            for error in s.failedErrors { #expect(error is CancellationError, "\(error)") }
            if o.successes {
                #expect(s.startedKeys.count == s.finishedKeys.count + s.failedKeys.count)
                #expect(s.startedKeys.count == attempts.value)
            }
            #expect(s.disposed.count == (o.successes ? made.count : 0))
        }
    }

    @Test("1,000 first uses of a slow Lazy handle, half cancelled: one value")
    func lazyCancellationStorm() async throws {
        let gated = GatedEngine()
        let (started, release, built) = (gated.started, gated.release, gated.built)
        let injector = try await gated.injector(singleton: false, observer: StrictObserver())
        let lazy = try await injector.get(Lazy<Engine>.self)
        let results = try await bounded {
            let tasks = (0..<1000).map { _ in Task { try await lazy.value } }
            await started.wait()
            for i in stride(from: 0, to: 1000, by: 2) { tasks[i].cancel() }
            release.open()
            var out: [(Int, Result<Engine, any Error>)] = []
            for (i, t) in tasks.enumerated() { out.append((i, await t.result)) }
            return out
        }
        var ids = Set<ObjectIdentifier>()
        for (i, r) in results {
            switch r {
            case .success(let e): ids.insert(ObjectIdentifier(e))
            case .failure(let error):
                #expect(i % 2 == 0 && error is CancellationError, "task \(i): \(error)")
            }
        }
        #expect(ids.count == 1)
        #expect(built.value == 1)
    }

    @Test(
        "a provider failure reaches all 500 waiters, is reported once, and is not cached",
        arguments: ObserverKind.allCases)
    func failureReachesEveryWaiter(kind: ObserverKind) async throws {
        let (observer, strict) = kind.make()
        let started = Gate()
        let release = Gate()
        let attempts = Counter()
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(Engine.self).to { _ in
                        let attempt = attempts.increment()
                        if attempt == 1 {
                            started.open()
                            await release.wait()
                            throw ProviderFailure(attempt: attempt)
                        }
                        return Engine()
                    }.asSingleton()
                }
            ],
            observer: observer
        )
        let results = try await bounded {
            try await withThrowingTaskGroup(of: Result<Engine, any Error>.self) { group in
                for _ in 0..<500 { group.addTask { await outcome { try await injector.get(Engine.self) } } }
                await started.wait()
                await waitUntil { await injector.callersWaiting(for: BindingKey(Engine.self)) >= 500 }
                release.open()
                var all: [Result<Engine, any Error>] = []
                for try await r in group { all.append(r) }
                return all
            }
        }
        for r in results {
            #expect(throws: ProviderFailure(attempt: 1)) { try r.get() }
        }
        _ = try await injector.get(Engine.self)
        #expect(attempts.value == 2)
        for o in strict {
            #expect(o.finalProblems() == [])
            #expect(o.count(\.failedKeys, of: Engine.self) == 1)
            #expect(o.count(\.finishedKeys, of: Engine.self) == (o.successes ? 1 : 0))
            #expect(o.snapshot.failedGets.count == 500)
        }
    }
}
