import ObjectionTesting
import Testing

@testable import Objection

/// Observers that misbehave — re-entrant, slow, shutting the injector down — and what an observer
/// hears when the two resolution paths race.
extension ObserverTests {
    /// Builds a `Car` from its engine and wheel: a plain `@Sendable` function, for an autowired
    /// binding that can be built without suspending.
    @Sendable static func car(engine: Engine, wheel: Wheel) -> Car { Car(engine: engine, wheel: wheel) }

    @Test(
        "an observer that gets from the injector, opens scopes and resolves again from every callback",
        arguments: [ObserverKind.successes, .failuresOnly, .combinedMixed])
    func reentrantObserver(kind: ObserverKind) async throws {
        let spawned = SpawnedTasks()
        let box = InjectorBox()
        // The injector's bindings hold the box: let go of the injector at the end, or both leak.
        defer { box.injector = nil }
        let fanOut = Counter()
        let (observer, strict) = kind.make(hook: { event, key in
            guard let injector = box.injector, fanOut.increment() < 2_000 else { return }
            switch event {
            case "started", "finished", "failed":
                // Ask for what is being built, from inside its own construction's events.
                spawned.add(
                    Task {
                        _ = try? await injector.get(Engine.self)
                        _ = try? await injector.get(Wheel.self)
                    })
            case "disposed", "scopeEnded":
                spawned.add(Task { _ = try? await injector.withScope(values: { _ in }) { try await $0.get(Car.self) } })
            default: break
            }
        })
        let built = Counter()
        let fail = Lock(true)
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(Engine.self).to { _ in
                        built.increment()
                        await Task.yield()
                        return Engine()
                    }.asSingleton()
                    b.bind(Wheel.self).to { _ in
                        if fail.withLock({ $0 }) { throw ProviderFailure(attempt: 1) }
                        return Wheel()
                    }.inScope(.scoped)
                    b.bind(Car.self).to(Car.init).inScope(.scoped)
                    b.bind(CountedResource.self).to(CountedResource.init).inScope(.scoped)
                }
            ],
            observer: observer
        )
        box.injector = injector
        try await withDeadline {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<200 {
                    group.addTask {
                        if i == 100 { fail.withLock { $0 = false } }
                        _ = try? await injector.withScope(values: { _ in }) { scope in
                            _ = try await scope.get(CountedResource.self)
                            return try await scope.get(Car.self)
                        }
                    }
                }
                try await group.waitForAll()
            }
            await spawned.drain()
        }
        #expect(built.value == 1)
        #expect(await injector.shutdown(within: nil) == nil)
        await spawned.drain()
        for o in strict { #expect(o.finalProblems() == []) }
    }

    @Test("a slow observer (busy for 200 µs per event) under 300 concurrent requests")
    func slowObserver() async throws {
        let observer = StrictObserver(hook: { _, _ in
            let until = ContinuousClock.now + .microseconds(200)
            while ContinuousClock.now < until {}
        })
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(Engine.self).to { _ in
                        await Task.yield(); return Engine()
                    }.asSingleton()
                    b.bind(Wheel.self).to(Wheel.init).inScope(.scoped)
                    b.bind(Car.self).to(Car.init).inScope(.scoped)
                }
            ],
            observer: observer
        )
        try await withDeadline {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<300 {
                    group.addTask { _ = try await injector.withScope(values: { _ in }) { try await $0.get(Car.self) } }
                }
                try await group.waitForAll()
            }
        }
        #expect(observer.recorded.started.count(of: Engine.self) == 1)
        #expect(observer.recorded.built.count(of: Car.self) == 300)
        #expect(observer.finalProblems() == [])
    }

    @Test("an observer that shuts the injector down from constructionStarted while 100 gets wait")
    func observerShutsDownMidConstruction() async throws {
        let spawned = SpawnedTasks()
        let box = InjectorBox()
        // The injector's bindings hold the box: let go of the injector at the end, or both leak.
        defer { box.injector = nil }
        let pool = ResourcePool()
        let observer = StrictObserver(hook: { event, key in
            guard event == "started", key == BindingKey(CountedResource.self), let injector = box.injector else {
                return
            }
            spawned.add(Task { _ = await injector.shutdown(within: nil) })
        })
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(CountedResource.self).to { _ in
                        await Task.yield()
                        return pool.make()
                    }.asSingleton()
                }
            ],
            observer: observer
        )
        box.injector = injector
        let results = try await withDeadline {
            let results = await withTaskGroup(of: Result<CountedResource, any Error>.self) { group in
                for _ in 0..<100 { group.addTask { await outcome { try await injector.get(CountedResource.self) } } }
                var all: [Result<CountedResource, any Error>] = []
                for await r in group { all.append(r) }
                return all
            }
            await spawned.drain()
            return results
        }
        for r in results {
            if case .failure(let error) = r { #expect((error as? InjectionError)?.code == .shutDown, "\(error)") }
        }
        #expect(pool.made.count <= 1)
        // Whatever was built is disposed once, perhaps in the background after shutdown returned.
        try await withDeadline { await waitUntil { pool.made.allSatisfy { $0.disposals.value == 1 } } }
        for r in pool.made { #expect(r.disposals.value == 1) }
        #expect(observer.finalProblems() == [])
    }

    @Test(
        "1,000 tasks of one request race the synchronous and asynchronous paths for one scoped chain: each heard once")
    func syncAsyncRaceInOneRequest() async throws {
        let observer = StrictObserver()
        let root = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(Engine.self).to { _ in
                        await Task.yield(); return Engine()
                    }.asSingleton()
                    b.bind(Wheel.self).to(Wheel.init).inScope(.scoped)
                    b.bind(Car.self).to(Self.car).inScope(.scoped)
                }
            ],
            observer: observer
        )
        for _ in 0..<5 {
            let distinct = try await withDeadline {
                try await root.withScope(values: { _ in }) { scope in
                    try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
                        for _ in 0..<1000 { group.addTask { ObjectIdentifier(try await scope.get(Car.self)) } }
                        var ids = Set<ObjectIdentifier>()
                        for try await id in group { ids.insert(id) }
                        return ids.count
                    }
                }
            }
            #expect(distinct == 1)
        }
        #expect(observer.recorded.started.count(of: Engine.self) == 1)
        #expect(observer.recorded.started.count(of: Car.self) == 5)
        #expect(observer.recorded.started.count(of: Wheel.self) == 5)
        #expect(observer.finalProblems() == [])
    }
}
