import Testing

@testable import Objection

@Suite("Asking a module what it binds")
struct ModuleIntrospectionTests {
    @Test("hasBinding answers from the module's own bindings, by type and name")
    func ownBindings() {
        let module = TestModule { binder in
            binder.bind(Engine.self).to(Engine.init)
            binder.bind(Headlight.self, named: "left").toInstance(Headlight(side: .left))
            binder.bind((any Database).self).to { _ in PostgresDatabase(config: Config(dsn: "x")) }
            binder.bind(RequestID.self).suppliedByScope()
        }
        #expect(module.hasBinding(for: Engine.self))
        #expect(!module.hasBinding(for: Engine.self, named: "left"))
        #expect(module.hasBinding(for: Headlight.self, named: "left"))
        #expect(!module.hasBinding(for: Headlight.self))
        #expect(!module.hasBinding(for: Headlight.self, named: "right"))
        #expect(module.hasBinding(for: (any Database).self))
        #expect(!module.hasBinding(for: PostgresDatabase.self))
        #expect(module.hasBinding(for: RequestID.self))
        #expect(!module.hasBinding(for: Wheel.self))
        // Handles are the injector's, not the module's.
        #expect(!module.hasBinding(for: Factory<Engine>.self))
    }

    @Test("a contribution binds the collection [T], named like the contribution, and not T")
    func contributions() {
        let module = TestModule { binder in
            binder.contribute(Wheel.self).to(Wheel.init)
            binder.contribute(Engine.self, named: "spare").to(Engine.init)
        }
        #expect(module.hasBinding(for: [Wheel].self))
        #expect(!module.hasBinding(for: Wheel.self))
        #expect(module.hasBinding(for: [Engine].self, named: "spare"))
        #expect(!module.hasBinding(for: [Engine].self))
        #expect(!module.hasBinding(for: Engine.self, named: "spare"))
    }

    @Test("a decorator, or a bind left without a target, binds nothing")
    func notBindings() {
        let module = TestModule { binder in
            binder.decorate(Engine.self) { _, engine in engine }
            _ = binder.bind(Wheel.self)
        }
        #expect(!module.hasBinding(for: Engine.self))
        #expect(!module.hasBinding(for: Wheel.self))
    }

    @Test("the module agrees with an injector built from it alone, and nothing is built to answer")
    func agreesWithInjector() async throws {
        let built = Counter()
        let module = TestModule { binder in
            binder.bind(Engine.self).to { _ in
                built.increment()
                return Engine()
            }.asEagerSingleton()
            binder.bind(Headlight.self, named: "left").toInstance(Headlight(side: .left))
            binder.contribute(Wheel.self).to(Wheel.init)
        }
        #expect(module.hasBinding(for: Engine.self))
        #expect(built.value == 0)

        let injector = try await InjectorActor(modules: [module])
        let keys: [(type: any Any.Type, name: String?)] = [
            (Engine.self, nil), (Headlight.self, "left"), (Headlight.self, nil), ([Wheel].self, nil),
            (Wheel.self, nil), (Config.self, nil),
        ]
        for (type, name) in keys {
            #expect(module.hasBinding(for: type, named: name) == injector.hasBinding(for: type, named: name))
        }
    }
}
