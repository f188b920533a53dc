import Testing

@testable import Objection

@Suite("Subscript, introspection and metatype bindings")
struct IntrospectionTests {
    protocol VehicleFactory: Sendable {
        static func make(model: String) -> String
    }

    enum CarFactory: VehicleFactory {
        static func make(model: String) -> String { "car \(model)" }
    }

    @Test("the subscript resolves like get, with and without a name")
    func subscriptAccess() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init).asSingleton()
            binder.bind(Headlight.self, named: "left").to { _ in Headlight(side: .left) }
        }
        #expect(try await injector[Engine.self] === (try await injector.get(Engine.self)))
        #expect(try await injector[Headlight.self, named: "left"].side == .left)
        let error = await injectionError { _ = try await injector[Wheel.self] }
        #expect(error?.code == .missingBinding)
    }

    @Test("hasBinding reports own, inherited and handle keys, never resolving anything")
    func hasBinding() async throws {
        let built = Counter()
        let root = try await makeInjector { binder in
            binder.bind(Engine.self).to { _ in
                built.increment(); return Engine()
            }
            binder.bind(Headlight.self, named: "left").to { _ in Headlight(side: .left) }
        }
        let child = try await root.child(modules: [TestModule { $0.bind(Wheel.self).to(Wheel.init) }])
        #expect(root.hasBinding(for: Engine.self))
        #expect(!root.hasBinding(for: Wheel.self))
        #expect(child.hasBinding(for: Wheel.self) && child.hasBinding(for: Engine.self))
        #expect(root.hasBinding(for: Headlight.self, named: "left"))
        #expect(!root.hasBinding(for: Headlight.self))
        #expect(root.hasBinding(for: Factory<Engine>.self) && root.hasBinding(for: Lazy<Engine>.self))
        #expect(!root.hasBinding(for: Factory<Wheel>.self))
        #expect(built.value == 0)
    }

    @Test("a metatype binding resolves the implementing type's static requirements")
    func metatypeBinding() async throws {
        let injector = try await makeInjector { binder in
            binder.bindMetatype((any VehicleFactory.Type).self, to: CarFactory.self)
        }
        let factory = try await injector.get((any VehicleFactory.Type).self)
        #expect(factory.make(model: "Passat") == "car Passat")
        #expect(ObjectIdentifier(factory) == ObjectIdentifier(CarFactory.self))
    }

    @Test("getIfBound agrees with hasBinding: just-in-time types and handles are bound")
    func getIfBoundAgreesWithHasBinding() async throws {
        let injector = try await makeInjector { $0.bind(Engine.self).to(Engine.init) }
        #expect(injector.hasBinding(for: InjectableClock.self))
        #expect(try await injector.getIfBound(InjectableClock.self) != nil)
        #expect(try await injector.getIfBound(Factory<Engine>.self) != nil)
        #expect(try await injector.getIfBound(Lazy<Engine>.self) != nil)
        #expect(try await injector.getIfBound(Factory<Wheel>.self) == nil)
        #expect(try await injector.getIfBound(Wheel.self) == nil)
    }
}
