import Testing

@testable import Objection

@Suite("Configuration checks when the injector is created")
struct ConfigurationTests {
    func configurationError(_ modules: [any Module]) async -> InjectionError? {
        await injectionError { _ = try await InjectorActor(modules: modules) }
    }

    @Test("binding one key twice in one module is a configuration error")
    func duplicateInOneModule() async throws {
        let error = await configurationError([
            TestModule { binder in
                binder.bind(Engine.self).to(Engine.init)
                binder.bind(Engine.self).to(Engine.init)
            }
        ])
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.problems.count == 1)
        #expect(error?.problems.first?.message.contains("'Engine' is bound more than once") == true)
        #expect(error?.problems.first?.location?.fileID.hasSuffix("ConfigurationTests.swift") == true)
    }

    @Test("a later module overrides an earlier one, key by key")
    func laterModuleOverrides() async throws {
        let production = TestModule { binder in
            binder.bind(Config.self).toInstance(Config(dsn: "prod"))
            binder.bind(Engine.self).to(Engine.init).asSingleton()
        }
        let overrides = TestModule { $0.bind(Config.self).toInstance(Config(dsn: "test")) }
        let injector = try await InjectorActor(modules: [production, overrides])
        #expect(try await injector.get(Config.self) == Config(dsn: "test"))
        _ = try await injector.get(Engine.self)
    }

    @Test("to(Concrete.self) with an unbound target is reported")
    func aliasToUnboundTarget() async throws {
        let error = await configurationError([TestModule { $0.bind((any Database).self).to(PostgresDatabase.self) }])
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.problems.first?.message == "'Database' is bound to 'PostgresDatabase', which is not bound")
    }

    @Test("to(Concrete.self) with a target that is not a subclass is reported")
    func aliasToNonSubclass() async throws {
        let error = await configurationError([
            TestModule { binder in
                binder.bind(Engine.self).to(Engine.init)
                binder.bind(Vehicle.self).to(Engine.self)
            }
        ])
        #expect(error?.problems.first?.message == "'Vehicle' is bound to 'Engine', which is not a 'Vehicle'")
    }

    @Test("to(Concrete.self) with a non-conforming instance target is reported")
    func aliasToNonConformingInstance() async throws {
        let error = await configurationError([
            TestModule { binder in
                binder.bind(Config.self).toInstance(Config(dsn: "x"))
                binder.bind((any Database).self).to(Config.self)
            }
        ])
        #expect(error?.problems.first?.message == "'Database' is bound to 'Config', which is not a 'Database'")
    }

    @Test("a non-conforming target that cannot be checked up front fails on resolution, naming types")
    func aliasMismatchAtResolution() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Config.self).to { _ in Config(dsn: "x") }
            binder.bind((any Database).self).to(Config.self)
        }
        let error = await injectionError { _ = try await injector.get((any Database).self) }
        #expect(error?.code == .typeMismatch)
        #expect(error?.message == "The binding for 'Database' produced a 'Config', which is not a 'Database'")
    }

    @Test("aliases that lead back to themselves are reported")
    func aliasLoop() async throws {
        let error = await configurationError([
            TestModule { binder in
                binder.bind(NodeA.self).to(NodeB.self)
                binder.bind(NodeB.self).to(NodeA.self)
            }
        ])
        let cycles = error?.problems.filter { $0.code == .circularDependency }.map(\.message)
        #expect(cycles == ["Circular dependency: NodeA -> NodeB -> NodeA"])
    }

    @Test("a binding without a target, and an eager singleton in another scope, are reported")
    func incompleteBindings() async throws {
        let error = await configurationError([
            TestModule { binder in
                _ = binder.bind(Engine.self)
                binder.bind(Wheel.self).to(Wheel.init).asEagerSingleton()
                binder.bind(Wheel.self, named: "spare").to(Wheel.init)
            },
            TestModule { binder in
                let eager = binder.bind(Car.self).to(Car.init)
                eager.asEagerSingleton()
                eager.inScope(.transient)
            },
        ])
        let messages = error?.problems.map(\.message) ?? []
        #expect(messages.count == 3)
        #expect(messages.contains { $0.contains("'Engine' is bound in TestModule but never given a target") })
        #expect(messages.contains("No binding for 'Engine' (required by Car -> Engine)"))
        #expect(messages.contains("'Car' is an eager singleton but is scoped transient"))
    }

    @Test("every problem is reported together, each with its location")
    func allProblemsTogether() async throws {
        let error = await configurationError([
            TestModule { binder in
                binder.bind(Engine.self).to(Engine.init)
                binder.bind(Engine.self).to(Engine.init)
                binder.bind((any Database).self).to(PostgresDatabase.self)
            }
        ])
        #expect(error?.problems.count == 2)
        #expect(error?.problems.allSatisfy { $0.location != nil } == true)
        #expect(error?.description.hasPrefix("Invalid injector configuration (2 problems):") == true)
    }

    @Test("an eager singleton whose provider throws makes creation throw that error")
    func eagerFailure() async throws {
        await #expect(throws: ProviderFailure(attempt: 3)) {
            _ = try await makeInjector { binder in
                binder.bind(Engine.self).to { _ in throw ProviderFailure(attempt: 3) }.asEagerSingleton()
            }
        }
    }
}
