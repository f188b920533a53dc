import Testing

@testable import Objection

@Suite("Scopes")
struct ScopeTests {
    @Test("transient is the default: a new instance on every get")
    func transientByDefault() async throws {
        let injector = try await makeInjector { $0.bind(Engine.self).to { _ in Engine() } }
        let first = try await injector.get(Engine.self)
        let second = try await injector.get(Engine.self)
        #expect(first !== second)
    }

    @Test("a singleton is the same instance on every get, and when reached as a dependency")
    func singleton() async throws {
        let built = Counter()
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to { _ in
                built.increment(); return Engine()
            }.asSingleton()
            binder.bind(Wheel.self).to(Wheel.init)
            binder.bind(Car.self).to(Car.init)
        }
        let first = try await injector.get(Car.self)
        let second = try await injector.get(Car.self)
        #expect(first !== second)
        #expect(first.wheel !== second.wheel)
        #expect(first.engine === second.engine)
        #expect(first.engine === (try await injector.get(Engine.self)))
        #expect(built.value == 1)
    }

    @Test("inScope(.singleton) is asSingleton()")
    func inScopeSingleton() async throws {
        let injector = try await makeInjector { $0.bind(Engine.self).to { _ in Engine() }.inScope(.singleton) }
        #expect(try await injector.get(Engine.self) === (try await injector.get(Engine.self)))
    }

    @Test("two injectors built from the same modules have different singletons")
    func singletonPerInjector() async throws {
        let module = TestModule { $0.bind(Engine.self).to(Engine.init).asSingleton() }
        let first = try await InjectorActor(modules: [module])
        let second = try await InjectorActor(modules: [module])
        #expect(try await first.get(Engine.self) !== (try await second.get(Engine.self)))
    }

    @Test("named and unnamed singletons of one type are separate instances")
    func scopePerKey() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init).asSingleton()
            binder.bind(Engine.self, named: "spare").to(Engine.init).asSingleton()
        }
        let main = try await injector.get(Engine.self)
        let spare = try await injector.get(Engine.self, named: "spare")
        #expect(main !== spare)
        #expect(spare === (try await injector.get(Engine.self, named: "spare")))
    }

    @Test("an eager singleton is built while the injector is created, once")
    func eagerSingleton() async throws {
        let built = Counter()
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to { _ in
                built.increment(); return Engine()
            }.asEagerSingleton()
        }
        #expect(built.value == 1)
        _ = try await injector.get(Engine.self)
        #expect(built.value == 1)
    }

    @Test("independent eager singletons are built concurrently", .hangLimit)
    func eagerSingletonsConcurrently() async throws {
        let injector = try await makeInjector { bindRendezvous($0, eager: true) }
        _ = try await injector.get(Engine.self)
    }
}
