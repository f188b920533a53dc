import Testing

@testable import Objection

@Suite("Multibindings")
struct MultibindingTests {
    protocol HealthCheck: Sendable {
        var name: String { get }
    }

    struct NamedCheck: HealthCheck {
        let name: String
    }

    final class DatabaseCheck: HealthCheck {
        let name = "database"
        let engine: Engine
        init(engine: Engine) { self.engine = engine }
    }

    struct CoreChecks: Module {
        func configure(_ binder: Binder) {
            binder.bind(Engine.self).to(Engine.init).asSingleton()
            binder.contribute((any HealthCheck).self).to(DatabaseCheck.init)
            binder.contribute((any HealthCheck).self).toInstance(NamedCheck(name: "disk"))
        }
    }

    struct PluginChecks: Module {
        func configure(_ binder: Binder) {
            binder.contribute((any HealthCheck).self).to { _ in NamedCheck(name: "plugin") }.asSingleton()
            binder.contribute((any HealthCheck).self, named: "startup").toInstance(NamedCheck(name: "migrations"))
        }
    }

    @Test("every module's contributions arrive together, in module order, each in its own scope")
    func collectsInModuleOrder() async throws {
        let injector = try await InjectorActor(modules: [CoreChecks(), PluginChecks()])
        let checks = try await injector.get([any HealthCheck].self)
        #expect(checks.map(\.name) == ["database", "disk", "plugin"])
        let again = try await injector.get([any HealthCheck].self)
        #expect((checks[0] as? DatabaseCheck) !== (again[0] as? DatabaseCheck))
        #expect((checks[0] as? DatabaseCheck)?.engine === (try await injector.get(Engine.self)))
        #expect(try await injector.get([any HealthCheck].self, named: "startup").map(\.name) == ["migrations"])
    }

    @Test("a dependency can receive the collection")
    func injectedCollection() async throws {
        struct Monitor: Sendable {
            let checks: [any HealthCheck]
        }
        let injector = try await InjectorActor(modules: [
            CoreChecks(), TestModule { $0.bind(Monitor.self).to(Monitor.init) },
        ])
        #expect(try await injector.get(Monitor.self).checks.count == 2)
    }

    @Test("a child's contributions follow its parent's; the parent's collection is unchanged")
    func childContributions() async throws {
        let root = try await InjectorActor(modules: [CoreChecks()])
        let child = try await root.child(modules: [PluginChecks()])
        #expect(try await child.get([any HealthCheck].self).map(\.name) == ["database", "disk", "plugin"])
        #expect(try await root.get([any HealthCheck].self).map(\.name) == ["database", "disk"])
    }

    @Test("binding a collection both directly and by contributions is a configuration error")
    func conflict() async throws {
        let error = await injectionError {
            _ = try await makeInjector { binder in
                binder.bind([any HealthCheck].self).toInstance([])
                binder.contribute((any HealthCheck).self).toInstance(NamedCheck(name: "x"))
            }
        }
        #expect(error?.code == .invalidConfiguration)
    }
}
