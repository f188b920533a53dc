import Testing

@testable import Objection

/// An `Injectable` type with injected properties, built by its own provider.
final class InjectableVehicle: CountingVehicle, Injectable, @unchecked Sendable {
    override init() {}
    static let injection = Injection<InjectableVehicle>(provider: { _ in InjectableVehicle() })
}

@Suite("Property injection happens once, where the injector builds the instance")
struct PropertyInjectionTests {
    /// Binds `Engine`, counting each one built, and `CountingSedan` as a singleton built by its
    /// initializer, whose engine is injected.
    static func bindSingletonSedan(_ binder: Binder, countingEngines enginesBuilt: Counter) {
        binder.bind(Engine.self).to { _ in
            enginesBuilt.increment()
            return Engine()
        }
        binder.bind(CountingSedan.self).to(CountingSedan.init).asSingleton()
    }

    @Test("an alias to a singleton injects and awakes the shared instance once, however often it is resolved")
    func aliasToSingletonInjectsOnce() async throws {
        let enginesBuilt = Counter()
        let injector = try await makeInjector { binder in
            Self.bindSingletonSedan(binder, countingEngines: enginesBuilt)
            binder.bind(CountingVehicle.self).to(CountingSedan.self)
        }
        let first = try await injector.get(CountingVehicle.self)
        let engine = first.engine
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { _ = try? await injector.get(CountingVehicle.self) } }
        }
        let last = try await injector.get(CountingVehicle.self)
        #expect(last === first)
        #expect(first.awakenings.value == 1)
        #expect(enginesBuilt.value == 1)
        #expect(last.engine === engine)
    }

    /// How a function that takes a built singleton hands it on.
    enum HandOver: String, CaseIterable, Sendable {
        case namedBinding, superclassBinding, adHocBuild
    }

    @Test(
        "a function that takes a built singleton and returns it injects and awakes nothing again",
        arguments: HandOver.allCases)
    func functionPassingASingletonOn(_ handOver: HandOver) async throws {
        let enginesBuilt = Counter()
        let injector = try await makeInjector { binder in
            Self.bindSingletonSedan(binder, countingEngines: enginesBuilt)
            binder.bind(CountingSedan.self, named: "shared").to { (sedan: CountingSedan) in sedan }
            binder.bind(CountingVehicle.self).to { (sedan: CountingSedan) in sedan }
        }
        let sedan = try await injector.get(CountingSedan.self)
        let engine = sedan.engine
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let handed: CountingVehicle? =
                        switch handOver {
                        case .namedBinding: try? await injector.get(CountingSedan.self, named: "shared")
                        case .superclassBinding: try? await injector.get(CountingVehicle.self)
                        case .adHocBuild: try? await injector.build { (sedan: CountingSedan) in sedan }
                        }
                    #expect(handed === sedan)
                }
            }
        }
        #expect(sedan.awakenings.value == 1)
        #expect(sedan.engine === engine)
        #expect(enginesBuilt.value == 1)
    }

    enum Primary: BindingName { static let name = "primary" }

    @Test("a function that takes a built singleton and builds a new instance from it injects and awakes the new one")
    func functionBuildingFromASingleton() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init)
            binder.bind(CountingSedan.self, named: Primary.name).to(CountingSedan.init).asSingleton()
            binder.bind(CountingSedan.self).to { (_: Named<CountingSedan, Primary>) in CountingSedan() }
        }
        let primary = try await injector.get(CountingSedan.self, named: Primary.name)
        let replica = try await injector.get(CountingSedan.self)
        #expect(replica !== primary)
        #expect(replica.engine != nil)
        #expect(replica.awakenings.value == 1)
        #expect(primary.awakenings.value == 1)
    }

    @Test("a provider closure's result is returned as built: no properties overwritten, no awake hook")
    func closureResultIsNotInjected() async throws {
        let special = Engine()
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init)
            binder.bind(CountingVehicle.self).to { _ in
                let vehicle = CountingVehicle()
                vehicle.engine = special
                return vehicle
            }
        }
        let vehicle = try await injector.get(CountingVehicle.self)
        #expect(vehicle.engine === special)
        #expect(vehicle.awakenings.value == 0)
    }

    @Test("a provider object's result is returned as built")
    func providerObjectResultIsNotInjected() async throws {
        struct Maker: Provider {
            func provide(_ resolver: Resolver) async throws -> CountingVehicle { CountingVehicle() }
        }
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init)
            binder.bind(CountingVehicle.self).to(provider: Maker())
        }
        let vehicle = try await injector.get(CountingVehicle.self)
        #expect(vehicle.engine == nil)
        #expect(vehicle.awakenings.value == 0)
    }

    @Test("an autowired initializer's instance gets its properties and one awake call")
    func autowiredIsInjected() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init)
            binder.bind(CountingSedan.self).to(CountingSedan.init)
        }
        let sedan = try await injector.get(CountingSedan.self)
        #expect(sedan.engine != nil)
        #expect(sedan.awakenings.value == 1)
    }

    @Test("an Injectable type is injected once, even when it declares a provider")
    func injectableIsInjected() async throws {
        let injector = try await makeInjector { $0.bind(Engine.self).to(Engine.init) }
        let vehicle = try await injector.get(InjectableVehicle.self)
        #expect(vehicle.engine != nil)
        #expect(vehicle.awakenings.value == 1)
    }

    @Test("injectDependencies(into:) fills an object built elsewhere")
    func objectBuiltElsewhere() async throws {
        let injector = try await makeInjector { $0.bind(Engine.self).to(Engine.init) }
        let vehicle = CountingVehicle()
        try await injector.injectDependencies(into: vehicle)
        #expect(vehicle.engine != nil)
        #expect(vehicle.awakenings.value == 1)
    }

    @Test("injectDependencies(into:) after shutdown throws shutDown and awakes nothing, even without properties")
    func afterShutdown() async throws {
        final class Bare: PropertyInjectable {
            static let injectedProperties: [InjectedProperty] = []
            let awakenings = Counter()
            func awakeFromInjection() { awakenings.increment() }
        }
        let injector = try await makeInjector { $0.bind(Engine.self).to(Engine.init) }
        _ = await injector.shutdown(within: nil)
        let bare = Bare()
        let vehicle = CountingVehicle()
        #expect(await injectionError { try await injector.injectDependencies(into: bare) }?.code == .shutDown)
        #expect(await injectionError { try await injector.injectDependencies(into: vehicle) }?.code == .shutDown)
        #expect(bare.awakenings.value == 0)
        #expect(vehicle.awakenings.value == 0)
    }
}
