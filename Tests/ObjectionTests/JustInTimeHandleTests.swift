import Testing

@testable import Objection

/// Holds handles to a just-in-time type.
final class GarageOwner: Sendable {
    let garages: Factory<Garage>
    let registry: Lazy<Registry>
    init(garages: Factory<Garage>, registry: Lazy<Registry>) {
        self.garages = garages
        self.registry = registry
    }
}

/// A singleton that needs a just-in-time scoped type: a captive dependency.
final class LedgerKeeper: Sendable {
    init(ledger: RequestLedger) {}
}

@Suite("Just-in-time types: handles, the graph check and runtime arguments")
struct JustInTimeHandleTests {
    @Test("Factory and Lazy are provided for an Injectable type, and hasBinding says so")
    func handlesForInjectable() async throws {
        let injector = try await makeInjector { $0.bind(Engine.self).to(Engine.init).asSingleton() }
        #expect(injector.hasBinding(for: Garage.self))
        #expect(injector.hasBinding(for: Factory<Garage>.self))
        #expect(injector.hasBinding(for: Lazy<Registry>.self))
        let garages = try await injector.get(Factory<Garage>.self)
        #expect(try await garages() !== (try await garages()))
        let registry = try await injector.get(Lazy<Registry>.self)
        #expect(try await registry.value === (try await injector.get(Registry.self)))
        #expect(try await injector.getIfBound(Factory<Garage>.self) != nil)
    }

    @Test("a declared Factory or Lazy dependency on an Injectable type passes the creation check")
    func declaredHandleDependency() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init)
            binder.bind(GarageOwner.self).to(GarageOwner.init)
        }
        let owner = try await injector.get(GarageOwner.self)
        _ = try await owner.garages()
        _ = try await owner.registry.value
    }

    @Test("a singleton needing a scoped Injectable type is refused when the injector is created")
    func captiveJustInTimeRefusedAtCreation() async throws {
        let error = await injectionError {
            _ = try await makeInjector { $0.bind(LedgerKeeper.self).to(LedgerKeeper.init).asSingleton() }
        }
        #expect(error?.code == .scopeViolation)
        #expect(error?.description.contains("LedgerKeeper -> RequestLedger") == true)
    }

    @Test("a just-in-time type's missing dependency is reported when a declared binding reaches it")
    func justInTimeMissingDependency() async throws {
        final class Shed: Sendable {
            init(garage: Garage) {}
        }
        let error = await injectionError { _ = try await makeInjector { $0.bind(Shed.self).to(Shed.init) } }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.description.contains("Shed -> Garage -> Engine") == true)
    }
}
