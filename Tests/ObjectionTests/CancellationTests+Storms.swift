import ObjectionTesting
import Testing

@testable import Objection

/// Cancellation storms: a thousand callers of one slow construction, half of them cancelled at
/// random points, the builder among them: one construction, one instance, and every survivor
/// gets it.
extension CancellationTests {
    @Test(
        "1,000 gets of a slow singleton, half cancelled at random points: one construction, one instance",
        arguments: ObserverKind.allCases)
    func singletonCancellationStorm(kind: ObserverKind) async throws {
        let (observer, strict) = kind.make()
        let gated = GatedEngine()
        let (started, release, built) = (gated.started, gated.release, gated.built)
        let injector = try await gated.injector(observer: observer)
        let results = try await withDeadline {
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
            #expect(o.recorded.started.count(of: Engine.self) == (o.successes ? 1 : 0))
            #expect(o.recorded.failures.map(\.key).count(of: Engine.self) == 0)
            #expect(o.recorded.resolutionFailures.count == cancellations)
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
        let outcome = try await withDeadline {
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
            let s = o.recorded
            #expect(s.built.count == (o.successes ? made.count : 0))
            for (_, error) in s.failures { #expect(error is CancellationError, "\(error)") }
            if o.successes {
                #expect(s.started.count == s.built.count + s.failures.count)
                #expect(s.started.count == attempts.value)
            }
            #expect(s.disposals.succeeded.count == (o.successes ? made.count : 0))
        }
    }

    @Test("1,000 first uses of a slow Lazy handle, half cancelled: one value")
    func lazyCancellationStorm() async throws {
        let gated = GatedEngine()
        let (started, release, built) = (gated.started, gated.release, gated.built)
        let injector = try await gated.injector(singleton: false, observer: StrictObserver())
        let lazy = try await injector.get(Lazy<Engine>.self)
        let results = try await withDeadline {
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
}
