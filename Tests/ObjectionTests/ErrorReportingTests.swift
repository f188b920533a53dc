import Testing

@testable import Objection

@Suite("Error reporting")
struct ErrorReportingTests {
    /// A value whose description is a secret: an error must never show it.
    struct Secret: Sendable, CustomStringConvertible {
        let text = "SECRET-9f3a"
        var description: String { text }
    }

    struct CheckoutService: Sendable {}
    struct OrderService: Sendable {}
    protocol PaymentGateway: Sendable {}

    @Test("a missing top-level key names the key")
    func missingTopLevel() async throws {
        let injector = try await makeInjector { _ in }
        let error = await injectionError { _ = try await injector.get(Engine.self) }
        #expect(error?.code == .missingBinding)
        #expect(error?.description == "No binding for 'Engine'")
        #expect(error?.path == [BindingKey(Engine.self)])
    }

    @Test("a missing dependency names the path from the outermost request")
    func missingDependencyPath() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(CheckoutService.self).to { r in
                _ = try await r.get(OrderService.self); return .init()
            }
            binder.bind(OrderService.self).to { r in
                _ = try await r.get((any PaymentGateway).self); return .init()
            }
        }
        let error = await injectionError { _ = try await injector.get(CheckoutService.self) }
        #expect(error?.code == .missingBinding)
        #expect(
            error?.description
                == "No binding for 'PaymentGateway' (required by CheckoutService -> OrderService -> PaymentGateway)"
        )
        #expect(error?.path.count == 3)
    }

    @Test("a missing autowired dependency is reported when the injector is built, with its path")
    func missingAutowiredDependency() async throws {
        let error = await injectionError {
            _ = try await makeInjector { binder in
                binder.bind(Car.self).to(Car.init)
                binder.bind(Engine.self).to(Engine.init)
            }
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.problems.map(\.description) == ["No binding for 'Wheel' (required by Car -> Wheel)"])
        #expect(error?.problems.first?.code == .missingBinding)
        #expect(error?.problems.first?.path == [BindingKey(Car.self), BindingKey(Wheel.self)])
    }

    @Test("a missing named key shows its name")
    func missingNamed() async throws {
        let injector = try await makeInjector { $0.bind(Headlight.self, named: "left").to { _ in .init(side: .left) } }
        let error = await injectionError { _ = try await injector.get(Headlight.self, named: "right") }
        #expect(error?.description == "No binding for 'Headlight named \"right\"'")
    }

    @Test("getIfBound is nil for an unbound key, but a missing dependency of a bound key still throws")
    func getIfBound() async throws {
        let injector = try await makeInjector { binder in
            // A closure hides its dependencies, so the missing one shows when it runs.
            binder.bind(Car.self).to { r in try await Car(engine: r.get(Engine.self), wheel: r.get(Wheel.self)) }
            binder.bind(Engine.self).to(Engine.init)
        }
        let wheel: Wheel? = try await injector.getIfBound(Wheel.self)
        #expect(wheel == nil)
        #expect(try await injector.getIfBound(Engine.self) != nil)
        let error = await injectionError { _ = try await injector.getIfBound(Car.self) }
        #expect(error?.code == .missingBinding)
    }

    @Test("a provider's own error reaches the caller unchanged, through several levels")
    func providerErrorsAreNotWrapped() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to { _ in throw ProviderFailure(attempt: 7) }
            binder.bind(Wheel.self).to(Wheel.init)
            binder.bind(Car.self).to(Car.init)
        }
        await #expect(throws: ProviderFailure(attempt: 7)) { try await injector.get(Car.self) }
    }

    @Test("errors name types, never resolved values")
    func noValuesInErrors() async throws {
        let secret = "postgres://admin:hunter2@db/prod"
        let injector = try await makeInjector { binder in
            binder.bind(Config.self).toInstance(Config(dsn: secret))
            binder.bind(String.self).to { r in try await r.get(Config.self).dsn }
            binder.bind((any Database).self).to(String.self)
            binder.bind(UserRepository.self).to { r in
                let config = try await r.get(Config.self)
                _ = try await r.get(Wheel.self, named: "spare")
                return UserRepository(database: PostgresDatabase(config: config))
            }
        }
        let missing = await injectionError { _ = try await injector.get(UserRepository.self) }
        let mismatch = await injectionError { _ = try await injector.get((any Database).self) }
        #expect(mismatch?.code == .typeMismatch)
        for error in [missing, mismatch] {
            let text = try #require(error).description
            #expect(!text.contains("hunter2"))
        }
    }

    @Test("errors compare equal by code")
    func equalityByCode() {
        let first = InjectionError(code: .missingBinding, message: "No binding for 'A'")
        let second = InjectionError(code: .missingBinding, message: "No binding for 'B'")
        let third = InjectionError(code: .circularDependency, message: "Circular dependency: A -> A")
        #expect(first == second)
        #expect(first != third)
    }

    @Test("errors about arguments, request values and conversions never show a value")
    func errorsNeverShowValues() async throws {
        final class SecretKeeper: Sendable {
            let secret: Secret
            init(secret: Secret) { self.secret = secret }
        }
        let injector = try await makeInjector { b in
            b.bind(Secret.self).toInstance(Secret())
            b.bind(Headlight.self).to(arguments: Int.self) { _, _ in Headlight(side: .left) }
            b.bind(SecretKeeper.self).to(SecretKeeper.init)
        }
        var errors: [InjectionError] = []
        if let e = await injectionError({ _ = try await injector.get(Headlight.self, arguments: Secret()) }) {
            errors.append(e)
        }
        if let e = await injectionError({ _ = try await injector.get(Headlight.self, arguments: 1, Secret()) }) {
            errors.append(e)
        }
        if let e = await injectionError({
            try await injector.withScope(values: { $0.bind(Secret.self, to: Secret()) }) { _ in }
        }) {
            errors.append(e)
        }
        if let e = await injectionError({ _ = try await injector.get(SecretKeeper.self, arguments: Secret()) }) {
            errors.append(e)
        }
        #expect(errors.count == 4)
        for e in errors {
            let text = "\(e) \(e.message) \(e.path) \(e.problems) \(String(describing: e.underlying))"
            #expect(!text.contains("SECRET"), "\(text)")
        }
    }
}
