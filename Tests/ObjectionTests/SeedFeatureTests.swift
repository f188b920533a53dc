import Testing

@testable import Objection

enum LeftLight: BindingName { static let name = "left" }
enum RightLight: BindingName { static let name = "right" }

/// A car whose lights are found by name, through its initializer's parameter types.
final class NamedLightsCar: Sendable {
    let left: Headlight
    let right: Headlight
    init(left: Named<Headlight, LeftLight>, right: Named<Headlight, RightLight>) {
        self.left = left.value
        self.right = right.value
    }
}

/// Counts its constructions, so tests can tell eager from lazy and shared from new.
final class CountedGarage: Injectable {
    static let built = Counter()
    init() { Self.built.increment() }
    static let injection = Injection(CountedGarage.init)
}

/// An `Injectable` type used only by the re-scoping test.
final class RescopedShed: Injectable {
    init(engine: Engine) {}
    static let injection = Injection(RescopedShed.init)
}

/// An `Injectable` type that declares itself a singleton, for the test that demotes it.
final class DeclaredSingletonShed: Injectable {
    init() {}
    static let injection = Injection(DeclaredSingletonShed.init).asSingleton()
}

struct ArgumentCarProvider: ArgumentProvider {
    func provide(_ resolver: Resolver, arguments: (String, String)) async throws -> ArgumentCar {
        ArgumentCar(make: arguments.0, model: arguments.1)
    }
}

struct HeadlightProvider: ArgumentProvider {
    func provide(_ resolver: Resolver, arguments: Side) async throws -> Headlight { Headlight(side: arguments) }
}

@Suite("Seed features: named parameters, argument providers, the object factory, re-scoping Injectable types")
struct SeedFeatureTests {
    @Test("Named parameters of an autowired initializer resolve their named bindings, on every path")
    func namedParameters() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Headlight.self, named: LeftLight.name).toInstance(Headlight(side: .left))
            binder.bind(Headlight.self, named: RightLight.name).to { _ in Headlight(side: .right) }.asSingleton()
            binder.bind(NamedLightsCar.self).to(NamedLightsCar.init)
        }
        // The first get builds the singleton on the asynchronous path, the second takes the plan.
        for _ in 0..<2 {
            let car = try await injector.get(NamedLightsCar.self)
            #expect(car.left.side == .left)
            #expect(car.right.side == .right)
        }
    }

    @Test("a missing named parameter is reported when the injector is created, with its name and path")
    func missingNamedParameter() async throws {
        let error = await injectionError {
            _ = try await makeInjector { binder in
                binder.bind(Headlight.self, named: LeftLight.name).toInstance(Headlight(side: .left))
                binder.bind(NamedLightsCar.self).to(NamedLightsCar.init)
            }
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.description.contains("NamedLightsCar -> Headlight named \"right\"") == true)
    }

    @Test("an argument provider receives each get's runtime arguments, typed")
    func argumentProvider() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(ArgumentCar.self).to(provider: ArgumentCarProvider(), arguments: String.self, String.self)
                .defaults("VW", "Golf")
            binder.bind(Headlight.self).to(provider: HeadlightProvider(), arguments: Side.self)
        }
        let passat = try await injector.get(ArgumentCar.self, arguments: "VW", "Passat")
        #expect(passat.model == "Passat")
        #expect(try await injector.get(ArgumentCar.self).model == "Golf")
        #expect(try await injector.get(Headlight.self, arguments: Side.right).side == .right)
        let error = await injectionError { _ = try await injector.get(Headlight.self, arguments: "left") }
        #expect(error?.code == .argumentMismatch)
    }

    @Test("every injector provides an untyped object factory, typed at the call")
    func objectFactory() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init).asSingleton()
            binder.bind(Headlight.self, named: "left").to { _ in Headlight(side: .left) }
            binder.bind(ArgumentCar.self).to(provider: ArgumentCarProvider(), arguments: String.self, String.self)
        }
        #expect(injector.hasBinding(for: ObjectFactory.self))
        let objects = try await injector.get(ObjectFactory.self)
        #expect(try await objects.get(Engine.self) === (try await injector.get(Engine.self)))
        #expect(try await objects.get(Headlight.self, named: "left").side == .left)
        #expect(try await objects.get(ArgumentCar.self, arguments: "Fiat", "Panda").make == "Fiat")
        let missing = await injectionError { _ = try await objects.get(Wheel.self) }
        #expect(missing?.code == .missingBinding)
    }

    @Test("a request scope's object factory sees the request's values")
    func objectFactoryInScope() async throws {
        let injector = try await makeInjector { $0.bind(RequestID.self).suppliedByScope() }
        let id = try await injector.withScope(modules: [RequestModule(id: 7)]) { scope in
            try await scope.get(ObjectFactory.self).get(RequestID.self)
        }
        #expect(id == RequestID(value: 7))
    }

    @Test("an Injectable type can be re-scoped without restating how it is built")
    func rescopeInjectable() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init)
            binder.bind(RescopedShed.self, inScope: .singleton)
        }
        #expect(try await injector.get(RescopedShed.self) === (try await injector.get(RescopedShed.self)))
        // Without the module, the type's own declaration (transient) applies.
        let plain = try await makeInjector { $0.bind(Engine.self).to(Engine.init) }
        #expect(try await plain.get(RescopedShed.self) !== (try await plain.get(RescopedShed.self)))
    }

    @Test("an Injectable type declared a singleton can be demoted to a new instance per get, as bindClass:inScope: did")
    func demoteInjectableSingleton() async throws {
        let declared = try await makeInjector { _ in }
        #expect(
            try await declared.get(DeclaredSingletonShed.self) === (try await declared.get(DeclaredSingletonShed.self)))
        let demoted = try await makeInjector { $0.bind(DeclaredSingletonShed.self, inScope: .transient) }
        #expect(
            try await demoted.get(DeclaredSingletonShed.self) !== (try await demoted.get(DeclaredSingletonShed.self)))
    }

    @Test("an Injectable type can be registered as an eager singleton")
    func eagerInjectable() async throws {
        let before = CountedGarage.built.value
        let injector = try await makeInjector { $0.registerEagerSingleton(CountedGarage.self) }
        #expect(CountedGarage.built.value == before + 1)
        _ = try await injector.get(CountedGarage.self)
        #expect(CountedGarage.built.value == before + 1)
    }
}
