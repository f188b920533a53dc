import Synchronization
import Testing

@testable import Objection

/// A vehicle whose engine is set by property injection; its subclass adds named lights.
class InjectedVehicle: PropertyInjectable, @unchecked Sendable {
    var engine: Engine?
    let awakenings = Counter()
    let seenAtAwake = Log()

    init() {}

    class var injectedProperties: [InjectedProperty] { [.property(\InjectedVehicle.engine)] }

    func awakeFromInjection() async throws {
        await Task.yield()
        awakenings.increment()
        seenAtAwake.append(engine == nil ? "no engine" : "engine")
    }
}

final class InjectedTruck: InjectedVehicle, @unchecked Sendable {
    var leftLight: Headlight?
    // Implicitly unwrapped on purpose: the style Objection users wrote; injection handles it.
    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    var wheel: Wheel!

    override class var injectedProperties: [InjectedProperty] {
        [.property(\InjectedTruck.leftLight, named: "left"), .property(\InjectedTruck.wheel)]
    }

    override func awakeFromInjection() async throws {
        try await super.awakeFromInjection()
        seenAtAwake.append(leftLight?.side == .left && wheel != nil ? "lights and wheel" : "missing")
    }
}

@Suite("Declared dependencies: property injection, awake hook, just-in-time types")
struct DeclaredDependencyTests {
    static func module() -> TestModule {
        TestModule { binder in
            binder.bind(Engine.self).to(Engine.init).asSingleton()
            binder.bind(Wheel.self).to(Wheel.init)
            binder.bind(Headlight.self, named: "left").to { _ in Headlight(side: .left) }
            binder.bind(InjectedTruck.self).to(InjectedTruck.init)
        }
    }

    @Test("properties of a built class and its superclasses are set, names honoured, then it awakes once")
    func propertyInjectionWithInheritance() async throws {
        let injector = try await InjectorActor(modules: [Self.module()])
        let truck = try await injector.get(InjectedTruck.self)
        #expect(truck.engine === (try await injector.get(Engine.self)))
        #expect(truck.leftLight?.side == .left)
        #expect(truck.wheel != nil)
        #expect(truck.awakenings.value == 1)
        #expect(truck.seenAtAwake.values == ["engine", "lights and wheel"])
    }

    @Test("injectDependencies fills an object built elsewhere and awakes it")
    func injectIntoOutsideObject() async throws {
        let injector = try await InjectorActor(modules: [Self.module()])
        let vehicle = InjectedVehicle()
        try await injector.injectDependencies(into: vehicle)
        #expect(vehicle.engine != nil)
        #expect(vehicle.awakenings.value == 1)
    }

    @Test("a missing property dependency is reported when the injector is built, with its path")
    func missingProperty() async throws {
        let error = await injectionError {
            _ = try await makeInjector { $0.bind(InjectedTruck.self).to(InjectedTruck.init) }
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(
            error?.problems.map(\.description).contains("No binding for 'Engine' (required by InjectedTruck -> Engine)")
                == true)
    }

    @Test("an Injectable type resolves without a binding, with its declared dependencies")
    func justInTime() async throws {
        let injector = try await InjectorActor(modules: [Self.module()])
        let garage = try await injector.get(Garage.self)
        #expect(garage.engine === (try await injector.get(Engine.self)))
        #expect(try await injector.get(Garage.self) !== garage)
        #expect(injector.hasBinding(for: Garage.self))
    }

    @Test("a just-in-time singleton belongs to the root: children and scopes share it")
    func justInTimeSingleton() async throws {
        let root = try await InjectorActor(modules: [Self.module()])
        let child = try await root.child(modules: [])
        let fromChild = try await child.get(Registry.self)
        #expect(fromChild === (try await root.get(Registry.self)))
        let fromScope = try await root.withScope { try await $0.get(Registry.self) }
        #expect(fromScope === fromChild)
    }

    @Test("a just-in-time scoped type has one instance per request scope")
    func justInTimeScoped() async throws {
        let root = try await InjectorActor(modules: [Self.module()])
        let (first, again) = try await root.withScope { scope in
            try await (scope.get(RequestLedger.self), scope.get(RequestLedger.self))
        }
        let other = try await root.withScope { try await $0.get(RequestLedger.self) }
        #expect(first === again && first !== other)
        let error = await injectionError { _ = try await root.get(RequestLedger.self) }
        #expect(error?.code == .scopeViolation)
    }

    @Test("an explicit binding overrides the type's own declaration")
    func explicitBindingWins() async throws {
        let special = Registry()
        let injector = try await makeInjector { $0.bind(Registry.self).toInstance(special) }
        #expect(try await injector.get(Registry.self) === special)
    }
}
