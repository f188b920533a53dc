import Testing

@testable import Objection

/// Misbehaving observers (re-entrant, slow, shutting the injector down), a combined observer on both
/// paths, and what an observer hears when the two paths race or an injector is derived.
@Suite("Hostile: observers", .timeLimit(.minutes(2)))
struct HostileObserverTests {
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
        try await bounded {
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
        #expect(await injector.shutdown() == nil)
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
        try await bounded(60) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<300 {
                    group.addTask { _ = try await injector.withScope(values: { _ in }) { try await $0.get(Car.self) } }
                }
                try await group.waitForAll()
            }
        }
        #expect(observer.count(\.startedKeys, of: Engine.self) == 1)
        #expect(observer.count(\.finishedKeys, of: Car.self) == 300)
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
            spawned.add(Task { _ = await injector.shutdown() })
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
        let results = try await bounded {
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
        try await bounded { await waitUntil { pool.made.allSatisfy { $0.disposals.value == 1 } } }
        for r in pool.made { #expect(r.disposals.value == 1) }
        #expect(observer.finalProblems() == [])
    }

    @Test(
        "a combined observer: the failure-only half hears each failure once, the other each construction once, on both paths"
    )
    func combinedMixedOnBothPaths() async throws {
        let failures = StrictObserver(successes: false, scopes: false, standalone: false)
        let all = StrictObserver()
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(Engine.self).to(Engine.init).asSingleton()
                    // Synchronous path, fails in place.
                    b.bind(Wheel.self).to(ObserverTests.brokenWheel).inScope(.scoped)
                    // Asynchronous path, fails.
                    b.bind(Headlight.self).to { _ in
                        await Task.yield()
                        throw ProviderFailure(attempt: 2)
                    }.inScope(.scoped)
                    b.bind(ObserverTests.Leaky.self).to(ObserverTests.Leaky.init).inScope(.scoped)
                    b.bind(CountedResource.self).to(CountedResource.init).inScope(.scoped)
                }
            ],
            observer: CombinedObserver(failures, CombinedObserver(all))
        )
        _ = try await injector.get(Engine.self)
        for _ in 0..<3 {
            await #expect(throws: InjectionError.self) {
                try await injector.withScope(values: { _ in }) { scope in
                    _ = try await scope.get(CountedResource.self)
                    _ = try await scope.get(ObserverTests.Leaky.self)
                    await #expect(throws: ProviderFailure(attempt: 1)) { try await scope.get(Wheel.self) }
                    await #expect(throws: ProviderFailure(attempt: 2)) { try await scope.get(Headlight.self) }
                }
            }
        }
        for o in [failures, all] {
            #expect(o.finalProblems() == [])
            let s = o.snapshot
            #expect(s.failedKeys.filter { $0 == BindingKey(Wheel.self) }.count == 3)
            #expect(s.failedKeys.filter { $0 == BindingKey(Headlight.self) }.count == 3)
            #expect(s.failedKeys.count == 6)
            #expect(s.failedDisposals == Array(repeating: BindingKey(ObserverTests.Leaky.self), count: 3))
            #expect(s.failedGets.count == 6)
        }
        #expect(all.count(\.finishedKeys, of: CountedResource.self) == 3)
        #expect(failures.snapshot.startedKeys.isEmpty)
        #expect(failures.snapshot.disposed.isEmpty)
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
                    b.bind(Car.self).to(hostileCar).inScope(.scoped)
                }
            ],
            observer: observer
        )
        for _ in 0..<5 {
            let distinct = try await bounded {
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
        #expect(observer.count(\.startedKeys, of: Engine.self) == 1)
        #expect(observer.count(\.startedKeys, of: Car.self) == 5)
        #expect(observer.count(\.startedKeys, of: Wheel.self) == 5)
        #expect(observer.finalProblems() == [])
    }

    @Test("derived injectors keep the observer's answer to observesSuccesses")
    func derivedKeepsAnswer() async throws {
        let observer = FlippingObserver()
        let root = try await InjectorActor(
            modules: [TestModule { $0.bind(Engine.self).to(Engine.init).asSingleton() }], observer: observer)
        let derived = try await root.withModules([])
        let child = try await root.child(modules: [])
        _ = try await root.get(Engine.self)
        _ = try await derived.get(Engine.self)
        _ = try await child.get(Engine.self)
        #expect(
            observer.started.value == 2,
            "root and derived each built one Engine; derived was heard? asked \(observer.asked.value) times")
    }
}
