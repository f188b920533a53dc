import Testing

@testable import Objection

@Suite("Factory and Lazy handles", .hangLimit)
struct HandleTests {
    final class Job: Sendable {
        let makeEngine: Factory<Engine>
        let wheel: Lazy<Wheel>
        init(makeEngine: Factory<Engine>, wheel: Lazy<Wheel>) {
            self.makeEngine = makeEngine
            self.wheel = wheel
        }
    }

    @Test("a factory builds a new instance per call for a transient, and respects a singleton")
    func factoryRespectsScope() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init)
            binder.bind(Wheel.self).to(Wheel.init).asSingleton()
        }
        let engines = try await injector.get(Factory<Engine>.self)
        #expect(try await engines() !== (try await engines()))
        #expect(try await engines.get() !== (try await engines.get()))
        let wheels = try await injector.get(Factory<Wheel>.self)
        #expect(try await wheels() === (try await wheels()))
    }

    @Test("autowired types receive factories and lazy handles for bound types")
    func autowiredHandles() async throws {
        let wheelsBuilt = Counter()
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init)
            binder.bind(Wheel.self).to { _ in
                wheelsBuilt.increment(); return Wheel()
            }
            binder.bind(Job.self).to(Job.init)
        }
        let job = try await injector.get(Job.self)
        #expect(wheelsBuilt.value == 0)
        let wheel = try await job.wheel.value
        #expect(try await job.wheel.value === wheel)
        let called = try await job.wheel()
        let fetched = try await job.wheel.get()
        #expect(called === wheel && fetched === wheel)
        #expect(wheelsBuilt.value == 1)
        _ = try await job.makeEngine()
    }

    @Test("a lazy handle builds once under 1,000 concurrent first uses")
    func lazyOnce() async throws {
        let built = Counter()
        let release = Gate()
        let injector = try await makeInjector { binder in
            binder.bind(Wheel.self).to { _ in
                built.increment()
                await release.wait()
                return Wheel()
            }
        }
        let lazy = try await injector.get(Lazy<Wheel>.self)
        let wheels = try await withThrowingTaskGroup(of: Wheel.self) { group in
            for _ in 0..<1_000 { group.addTask { try await lazy.value } }
            await waitUntil { built.value == 1 }
            release.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(built.value == 1)
        #expect(Set(wheels.map(ObjectIdentifier.init)).count == 1)
    }

    @Test("a lazy handle does not keep a failure")
    func lazyRetriesAfterFailure() async throws {
        let attempts = Counter()
        let injector = try await makeInjector { binder in
            binder.bind(Wheel.self).to { _ in
                if attempts.increment() == 1 { throw ProviderFailure(attempt: 1) }
                return Wheel()
            }
        }
        let lazy = try await injector.get(Lazy<Wheel>.self)
        await #expect(throws: ProviderFailure(attempt: 1)) { try await lazy.value }
        _ = try await lazy.value
        #expect(attempts.value == 2)
    }

    @Test("a child's lazy handle to a root singleton throws shutDown once the root disposed it, as get does")
    func lazyAfterItsTargetsOwnerShutDown() async throws {
        let log = Log()
        let root = try await makeInjector { binder in
            binder.bind(Resource.self).to { _ in Resource("pool", log: log) }.asSingleton()
        }
        let child = try await root.child(modules: [])
        let lazy = try await child.get(Lazy<Resource>.self)
        _ = try await lazy.value
        await root.shutdown()
        #expect(log.values == ["pool"])
        #expect(await injectionError { _ = try await child.get(Resource.self) }?.code == .shutDown)
        #expect(await injectionError { _ = try await lazy.value }?.code == .shutDown)
    }

    @Test("a handle to an unbound type is a missing binding")
    func unboundHandle() async throws {
        let injector = try await makeInjector { _ in }
        let error = await injectionError { _ = try await injector.get(Factory<Engine>.self) }
        #expect(error?.code == .missingBinding)
    }

    @Test("factories and lazy handles break construction cycles")
    func handlesBreakCycles() async throws {
        final class Parent: Sendable {
            let child: Lazy<Child>
            init(child: Lazy<Child>) { self.child = child }
        }
        final class Child: Sendable {
            // Weak: the parent keeps its lazily built child, so a strong reference back would be
            // an ordinary reference cycle between the two objects.
            weak let parent: Parent?
            init(parent: Parent) { self.parent = parent }
        }
        let injector = try await makeInjector { binder in
            binder.bind(Parent.self).to(Parent.init).asSingleton()
            binder.bind(Child.self).to(Child.init)
        }
        let parent = try await injector.get(Parent.self)
        #expect(try await parent.child.value.parent === parent)
    }

    @Test("a factory from a request scope builds scoped instances of that scope")
    func scopedFactory() async throws {
        let injector = try await makeInjector { $0.bind(Engine.self).to(Engine.init).inScope(.scoped) }
        try await injector.withScope { request in
            let engines = try await request.get(Factory<Engine>.self)
            #expect(try await engines() === (try await request.get(Engine.self)))
        }
    }
}
