import ObjectionTesting
import Testing

@testable import Objection

@Suite("Exactly-once singletons under concurrency", .hangLimit)
struct ExactlyOnceTests {
    @Test("1,000 concurrent first gets run a suspending provider once and share its instance")
    func stampede() async throws {
        let callers = 1_000
        let built = Counter()
        let release = Gate()
        let injector = try await makeInjector { binder in
            binder.bind((any Database).self).to { _ in
                built.increment()
                await release.wait()
                return PostgresDatabase(config: Config(dsn: "db"))
            }.asSingleton()
        }
        let instances = try await withThrowingTaskGroup(of: (any Database).self) { group in
            for _ in 0..<callers {
                group.addTask { try await injector.get((any Database).self) }
            }
            // Every caller has joined the one construction before the provider may finish.
            await waitUntil { await injector.callersWaiting(for: BindingKey((any Database).self)) == callers }
            release.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(built.value == 1)
        #expect(instances.count == callers)
        let first = try #require(instances.first as? PostgresDatabase)
        #expect(instances.allSatisfy { ($0 as? PostgresDatabase) === first })
    }

    @Test("a singleton reached only as a dependency of concurrent transients is built once")
    func singletonThroughDependencies() async throws {
        let built = Counter()
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to { _ in
                built.increment()
                await Task.yield()
                return Engine()
            }.asSingleton()
            binder.bind(Wheel.self).to(Wheel.init)
            binder.bind(Car.self).to(Car.init)
        }
        let engines = try await withThrowingTaskGroup(of: Engine.self) { group in
            for _ in 0..<200 { group.addTask { try await injector.get(Car.self).engine } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(built.value == 1)
        #expect(Set(engines.map(ObjectIdentifier.init)).count == 1)
    }

    @Test("a failing provider's error reaches every waiter unchanged and is not cached")
    func failuresAreSharedNotCached() async throws {
        let callers = 50
        let attempts = Counter()
        let release = Gate()
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to { _ in
                let attempt = attempts.increment()
                if attempt == 1 {
                    await release.wait()
                    throw ProviderFailure(attempt: attempt)
                }
                return Engine()
            }.asSingleton()
        }
        let results = await withTaskGroup(of: Result<Engine, any Error>.self) { group in
            for _ in 0..<callers {
                group.addTask { await outcome { try await injector.get(Engine.self) } }
            }
            await waitUntil { await injector.callersWaiting(for: BindingKey(Engine.self)) == callers }
            release.open()
            return await group.reduce(into: []) { $0.append($1) }
        }
        for result in results {
            #expect(throws: ProviderFailure(attempt: 1)) { try result.get() }
        }
        #expect(attempts.value == 1)

        let engine = try await injector.get(Engine.self)
        #expect(attempts.value == 2)
        #expect(engine === (try await injector.get(Engine.self)))
    }

    @Test("cancelling a waiter does not cancel the shared construction, and nothing cancelled is cached")
    func cancellation() async throws {
        let release = Gate()
        let sawCancellation = Counter()
        let built = Counter()
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to { _ in
                built.increment()
                await release.wait()
                if Task.isCancelled { sawCancellation.increment() }
                try Task.checkCancellation()
                return Engine()
            }.asSingleton()
        }
        // The cancelled caller is the one that starts the construction.
        let cancelled = Task { try await injector.get(Engine.self) }
        await waitUntil { await injector.callersWaiting(for: BindingKey(Engine.self)) == 1 }
        let patient = Task { try await injector.get(Engine.self) }
        await waitUntil { await injector.callersWaiting(for: BindingKey(Engine.self)) == 2 }
        cancelled.cancel()
        release.open()

        let engine = try await patient.value
        #expect(sawCancellation.value == 0)
        #expect(built.value == 1)
        #expect(try await injector.get(Engine.self) === engine)
        // The cancelled caller left with its own cancellation; none was stored for the others.
        await #expect(throws: CancellationError.self) { try await cancelled.value }
    }

    @Test("different keys construct concurrently: there is no injector-wide construction lock")
    func differentKeysConcurrently() async throws {
        let injector = try await makeInjector { bindRendezvous($0, eager: false) }
        async let engine = injector.get(Engine.self)
        async let wheel = injector.get(Wheel.self)
        _ = try await (engine, wheel)
    }

    @Test("a singleton whose provider resolves other singletons builds each once under a stampede")
    func nestedSingletonStampede() async throws {
        let carsBuilt = Counter()
        let enginesBuilt = Counter()
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to { _ in
                enginesBuilt.increment(); return Engine()
            }.asSingleton()
            binder.bind(Wheel.self).to(Wheel.init).asSingleton()
            binder.bind(Car.self).to { r in
                carsBuilt.increment()
                async let engine = r.get(Engine.self)
                async let wheel = r.get(Wheel.self)
                return try await Car(engine: engine, wheel: wheel)
            }.asSingleton()
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<300 {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        _ = try await injector.get(Car.self)
                    } else {
                        _ = try await injector.get(Engine.self)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(carsBuilt.value == 1)
        #expect(enginesBuilt.value == 1)
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
        let results = try await withDeadline {
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
            #expect(o.recorded.failures.map(\.key).count(of: Engine.self) == 1)
            #expect(o.recorded.built.count(of: Engine.self) == (o.successes ? 1 : 0))
            #expect(o.recorded.resolutionFailures.count == 500)
        }
    }
}
