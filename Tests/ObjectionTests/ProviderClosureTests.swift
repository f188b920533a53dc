import Testing

@testable import Objection

/// A type that declares a provider closure as its own construction.
final class ProvidedGadget: Injectable {
    let engine: Engine
    init(engine: Engine) { self.engine = engine }

    static let injection = Injection<ProvidedGadget>(provider: { r in
        try await ProvidedGadget(engine: r.get(Engine.self))
    })
}

@Suite("Provider closures held in variables")
struct ProviderClosureTests {
    @Test("a stored async closure binds as a provider, not as a function of a Resolver dependency")
    func storedAsyncClosure() async throws {
        let built = Counter()
        let make: @Sendable (Resolver) async throws -> Engine = { _ in
            built.increment()
            return Engine()
        }
        let injector = try await makeInjector { $0.bind(Engine.self).to(make) }
        _ = try await injector.get(Engine.self)
        #expect(built.value == 1)
    }

    @Test("a stored synchronous closure binds as a provider")
    func storedSyncClosure() async throws {
        let make: @Sendable (Resolver) throws -> Wheel = { _ in Wheel() }
        let injector = try await makeInjector { $0.bind(Wheel.self).to(make) }
        let first = try await injector.get(Wheel.self)
        #expect(try await injector.get(Wheel.self) !== first)
    }

    @Test("a stored closure resolves its dependencies through the resolver it receives")
    func storedClosureResolves() async throws {
        let make: @Sendable (Resolver) async throws -> Car = { r in
            try await Car(engine: r.get(Engine.self), wheel: r.get(Wheel.self))
        }
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init).asSingleton()
            binder.bind(Wheel.self).to(Wheel.init)
            binder.bind(Car.self).to(make)
        }
        let car = try await injector.get(Car.self)
        #expect(car.engine === (try await injector.get(Engine.self)))
    }

    @Test("Injection(provider:) on an Injectable type resolves")
    func injectableProvider() async throws {
        let engine = Engine()
        let injector = try await makeInjector { $0.bind(Engine.self).toInstance(engine) }
        #expect(try await injector.get(ProvidedGadget.self).engine === engine)
    }
}
