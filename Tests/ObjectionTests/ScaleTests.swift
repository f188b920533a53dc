import ObjectionTesting
import Testing

@testable import Objection

/// Large inputs: 100,000 bindings, waiters by the thousand, deeply nested scopes, long chains of
/// children and of singletons, and (``LongChains``) inputs 100,000 long that every walk must take
/// without exhausting the stack.
///
/// The 100,000-scale tests (trait `.scale`) take most of a run's time, and beside
/// the other suites they starve them; they run only with `OBJECTION_SCALE_TESTS=1`, which
/// `.ci/run` sets in a step of their own, plainly and under the sanitizers:
///
/// ```sh
/// OBJECTION_SCALE_TESTS=1 swift test --filter ScaleTests
/// ```
@Suite("Scale", .hangLimit)
struct ScaleTests {
    @Test("100,000 bindings, 1,000 of them singletons, with an observer", .scale, .onItsOwnThread)
    func hundredThousandBindings() async throws {
        let observer = StrictObserver()
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    for i in 0..<100_000 {
                        let builder = b.bind(Int.self, named: "k\(i)")
                        if i % 100 == 0 {
                            builder.to { _ in i }.asSingleton()
                        } else {
                            builder.toInstance(i)
                        }
                    }
                }
            ],
            observer: observer
        )
        let sum = try await withDeadline {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for i in stride(from: 0, to: 100_000, by: 97) {
                    group.addTask { try await injector.get(Int.self, named: "k\(i)") }
                }
                return try await group.reduce(0, +)
            }
        }
        #expect(sum == stride(from: 0, to: 100_000, by: 97).reduce(0, +))
        #expect(observer.finalProblems() == [])
        let missing = await injectionError { _ = try await injector.get(Int.self, named: "k100000") }
        #expect(missing?.code == .missingBinding)
    }

    @Test(
        "10,000 concurrent waiters on one cold singleton, with an observer: built once",
        arguments: [ObserverKind.successes, .combinedMixed])
    func tenThousandWaiters(kind: ObserverKind) async throws {
        let (observer, strict) = kind.make()
        let gated = GatedEngine()
        let (started, release, built) = (gated.started, gated.release, gated.built)
        let injector = try await gated.injector(observer: observer)
        let distinct = try await withDeadline {
            try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<10_000 { group.addTask { ObjectIdentifier(try await injector.get(Engine.self)) } }
                await started.wait()
                release.open()
                var ids = Set<ObjectIdentifier>()
                for try await id in group { ids.insert(id) }
                return ids.count
            }
        }
        #expect(distinct == 1)
        #expect(built.value == 1)
        for o in strict {
            #expect(o.finalProblems() == [])
            #expect(o.recorded.resolutionFailures.isEmpty)
        }
    }

    @Test("request scopes nested 20,000 deep resolve, end and dispose in order")
    func deeplyNestedScopes() async throws {
        let observer = StrictObserver()
        let pool = ResourcePool()
        let root = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(Engine.self).to(Engine.init).asSingleton()
                    b.bind(CountedResource.self).to { _ in pool.make() }.inScope(.scoped)
                }
            ],
            observer: observer
        )
        @Sendable func nest(_ scope: InjectorActor, _ depth: Int) async throws -> Int {
            if depth == 0 {
                _ = try await scope.get(Engine.self)
                _ = try await scope.get(CountedResource.self)
                return 0
            }
            return try await scope.withScope(values: { _ in }) { inner in
                if depth % 1000 == 0 { _ = try await inner.get(CountedResource.self) }
                return try await nest(inner, depth - 1) + 1
            }
        }
        let depth = try await withDeadline { try await nest(root, 20_000) }
        #expect(depth == 20_000)
        #expect(pool.made.count == 21)
        for r in pool.made { #expect(r.disposals.value == 1) }
        let scopes = observer.recorded.scopes
        #expect(scopes.count(where: { $0 == "opened" }) == 20_000)
        #expect(scopes.count(where: { $0 == "ended" }) == 20_000)
        #expect(observer.finalProblems() == [])
    }

    @Test("100,000 constructions waiting on one: each wait is recorded and forgotten in constant time", .scale)
    func hundredThousandWaitsOnOne() async throws {
        try await withDeadline {
            var graph = WaitGraph()
            let awaited = Construction(key: BindingKey(Int.self, named: "slow"))
            let waiters = (0..<100_000).map { Construction(key: BindingKey(Int.self, named: "w\($0)")) }
            for waiter in waiters { #expect(graph.insert(waiter: waiter, awaited: awaited) == nil) }
            // The slow construction cannot wait on one of its waiters: that closes a cycle.
            #expect(graph.insert(waiter: awaited, awaited: waiters[0]) != nil)
            for waiter in waiters { graph.remove(waiter: waiter, awaited: awaited) }
            // Every wait forgotten: the same edge closes no cycle any more.
            #expect(graph.insert(waiter: awaited, awaited: waiters[0]) == nil)
        }
    }

    @Test("a request scope with 100,000 values binds them and answers each", .scale)
    func hundredThousandValues() async throws {
        try await withDeadline {
            let root = try await InjectorActor(modules: [])
            let sum = try await root.withScope(values: { values in
                for i in 0..<100_000 { values.bind(Int.self, named: "v\(i)", to: i) }
            }) { scope in
                var sum = 0
                for i in stride(from: 0, to: 100_000, by: 1_000) {
                    sum += try await scope.get(Int.self, named: "v\(i)")
                }
                return sum
            }
            #expect(sum == stride(from: 0, to: 100_000, by: 1_000).reduce(0, +))
        }
    }

    @Test("request scopes nested 100,000 deep", .scale)
    func hundredThousandNestedScopes() async throws {
        let root = try await InjectorActor(
            modules: [TestModule { $0.bind(CountedResource.self).to(CountedResource.init).inScope(.scoped) }],
            observer: StrictObserver()
        )
        @Sendable func nest(_ scope: InjectorActor, _ depth: Int) async throws -> Int {
            if depth == 0 { _ = try await scope.get(CountedResource.self); return 0 }
            return try await scope.withScope(values: { _ in }) { try await nest($0, depth - 1) + 1 }
        }
        #expect(try await withDeadline { try await nest(root, 100_000) } == 100_000)
    }

    @Test("child injectors chained 2,000 deep resolve the root's singleton and shut down")
    func deepChildChain() async throws {
        let observer = StrictObserver()
        let root = try await InjectorActor(
            modules: [TestModule { $0.bind(Engine.self).to(Engine.init).asSingleton() }], observer: observer)
        let engine = try await root.get(Engine.self)
        let leaf = try await withDeadline {
            var current = root
            for _ in 0..<2_000 { current = try await current.child(modules: []) }
            return current
        }
        #expect(try await leaf.get(Engine.self) === engine)
        #expect(await leaf.shutdown(within: nil) == nil)
        #expect(await root.shutdown(within: nil) == nil)
        #expect(observer.finalProblems() == [])
    }

    @Test("child injectors chained 100,000 deep", .scale)
    func hundredThousandChildren() async throws {
        let root = try await InjectorActor(
            modules: [TestModule { $0.bind(Engine.self).to(Engine.init).asSingleton() }], observer: StrictObserver())
        var current: InjectorActor? = root
        for _ in 0..<100_000 { current = try await current!.child(modules: []) }
        _ = try await current!.get(Engine.self)
        current = nil
    }

    @Test("a production startup of a 3,000-long chain of singletons, observed: one tree under the startup")
    func productionChainTree() async throws {
        let observer = StrictObserver()
        let n = 3_000
        let injector = try await withDeadline {
            try await InjectorActor(
                modules: [
                    TestModule { b in
                        for i in 0..<n {
                            b.bind(Int.self, named: "c\(i)").to { r in
                                i == n - 1 ? i : try await r.get(Int.self, named: "c\(i + 1)") + 0 * i
                            }.asSingleton()
                        }
                    }
                ],
                stage: .production,
                observer: observer
            )
        }
        #expect(try await injector.get(Int.self, named: "c0") == n - 1)
        let (started, startups) = (observer.started, observer.recorded.startupIDs)
        #expect(startups.count == 1)
        #expect(started.count == n)
        #expect(observer.finalProblems() == [])
        // Every construction's parent is a construction of the chain or the startup.
        for c in started.values {
            if let p = c.parentID { #expect(started[p] != nil || startups.contains(p)) }
        }
        await injector.shutdown(within: nil)
    }
}
