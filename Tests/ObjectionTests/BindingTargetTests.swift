import Testing

@testable import Objection

@Suite("Binding targets")
struct BindingTargetTests {
    @Test("toInstance returns the very instance it was given")
    func instance() async throws {
        let engine = Engine()
        let injector = try await makeInjector { $0.bind(Engine.self).toInstance(engine) }
        #expect(try await injector.get(Engine.self) === engine)
        #expect(try await injector.get(Engine.self) === engine)
    }

    @Test("a provider closure may suspend, throw and resolve its own dependencies")
    func asyncProvider() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Config.self).toInstance(Config(dsn: "postgres://db/app"))
            binder.bind((any Database).self).to { r in
                await Task.yield()
                return try await PostgresDatabase(config: r.get(Config.self))
            }
        }
        let database = try await injector.get((any Database).self)
        #expect(database.dsn == "postgres://db/app")
    }

    @Test("initializers are autowired by parameter type, at any arity")
    func autowiring() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init).asSingleton()
            binder.bind(Wheel.self).to(Wheel.init)
            binder.bind(Car.self).to(Car.init)
        }
        let car = try await injector.get(Car.self)
        #expect(car.engine === (try await injector.get(Engine.self)))
    }

    @Test("an autowired function may be async and throwing, and may return a conforming type")
    func autowiredAsyncThrowingFunction() async throws {
        @Sendable func connect(config: Config) async throws -> PostgresDatabase {
            await Task.yield()
            guard !config.dsn.isEmpty else { throw ProviderFailure(attempt: 0) }
            return PostgresDatabase(config: config)
        }
        let injector = try await makeInjector { binder in
            binder.bind(Config.self).toInstance(Config(dsn: "postgres://x"))
            binder.bind((any Database).self).to(connect)
            binder.bind(UserRepository.self).to(UserRepository.init)
        }
        let repository = try await injector.get(UserRepository.self)
        #expect(repository.database.dsn == "postgres://x")
    }

    @Test("to(Concrete.self) binds a protocol to its implementation, keeping the target's scope")
    func protocolToImplementation() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Config.self).toInstance(Config(dsn: "d"))
            binder.bind(PostgresDatabase.self).to(PostgresDatabase.init).asSingleton()
            binder.bind((any Database).self).to(PostgresDatabase.self)
        }
        let viaProtocol = try await injector.get((any Database).self)
        let concrete = try await injector.get(PostgresDatabase.self)
        #expect((viaProtocol as? PostgresDatabase) === concrete)
    }

    @Test("to(Concrete.self) binds a superclass to a subclass")
    func superclassToSubclass() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Truck.self).to(Truck.init)
            binder.bind(Vehicle.self).to(Truck.self)
        }
        #expect(try await injector.get(Vehicle.self) is Truck)
    }

    @Test("a Provider object builds the value")
    func providerObject() async throws {
        struct DatabaseProvider: Provider {
            let suffix: String
            func provide(_ resolver: Resolver) async throws -> any Database {
                let config = try await resolver.get(Config.self)
                return PostgresDatabase(config: Config(dsn: config.dsn + suffix))
            }
        }
        let injector = try await makeInjector { binder in
            binder.bind(Config.self).toInstance(Config(dsn: "db"))
            binder.bind((any Database).self).to(provider: DatabaseProvider(suffix: "/replica")).asSingleton()
        }
        #expect(try await injector.get((any Database).self).dsn == "db/replica")
    }

    @Test("named bindings of one type are separate keys, and separate from the unnamed one")
    func namedBindings() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Headlight.self, named: "left").to { _ in Headlight(side: .left) }
            binder.bind(Headlight.self, named: "right").to { _ in Headlight(side: .right) }
        }
        #expect(try await injector.get(Headlight.self, named: "left").side == .left)
        #expect(try await injector.get(Headlight.self, named: "right").side == .right)
        #expect(try await injector.getIfBound(Headlight.self) == nil)
    }

    @Test("providers resolve named dependencies through their resolver")
    func namedDependencies() async throws {
        struct Lights: Sendable {
            let left: Headlight
            let right: Headlight
        }
        let injector = try await makeInjector { binder in
            binder.bind(Headlight.self, named: "left").to { _ in Headlight(side: .left) }
            binder.bind(Headlight.self, named: "right").to { _ in Headlight(side: .right) }
            binder.bind(Lights.self).to { r in
                try await Lights(left: r.get(Headlight.self, named: "left"), right: r.get(named: "right"))
            }
        }
        let lights = try await injector.get(Lights.self)
        #expect(lights.left.side == .left && lights.right.side == .right)
    }

    @Test("the resolver's getIfBound returns nil for an unbound key")
    func resolverGetIfBound() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(String.self).to { r in try await r.getIfBound(Config.self)?.dsn ?? "none" }
        }
        #expect(try await injector.get(String.self) == "none")
    }
}
