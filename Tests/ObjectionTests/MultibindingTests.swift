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

@Suite("Contributing a binding to a collection", .timeLimit(.minutes(1)))
struct ContributingTests {
    protocol Runnable: Sendable {}
    final class Database: Runnable {}
    final class Mailer: Runnable {}

    @Test("a singleton contributes its one instance; the collection lists contributions in order")
    func singletonContributes() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Database.self).to(Database.init).asSingleton().contributing(to: (any Runnable).self) { $0 }
            binder.bind(Mailer.self, named: "smtp").to(Mailer.init).asSingleton()
                .contributing(to: (any Runnable).self) { $0 }
        }
        let runnables = try await injector.get([any Runnable].self)
        #expect(runnables.count == 2)
        #expect(runnables[0] as? Database === (try await injector.get(Database.self)))
        #expect(runnables[1] as? Mailer === (try await injector.get(Mailer.self, named: "smtp")))
    }

    @Test("the contribution is a declared dependency: a cycle through it is refused at creation")
    func contributionIsChecked() async throws {
        final class Loop: Runnable {
            init(all: [any Runnable]) {}
        }
        let error = await injectionError {
            _ = try await makeInjector { binder in
                binder.bind(Loop.self).to(Loop.init).asSingleton().contributing(to: (any Runnable).self) { $0 }
            }
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.problems.first?.code == .circularDependency)
    }

    @Test("contributing to the same collection twice contributes once")
    func contributesOnce() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Database.self).to(Database.init).asSingleton()
                .contributing(to: (any Runnable).self) { $0 }
                .contributing(to: (any Runnable).self) { $0 }
        }
        #expect(try await injector.get([any Runnable].self).count == 1)
    }

    @Test("a named collection is separate from the unnamed one")
    func namedCollection() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Database.self).to(Database.init).asSingleton()
                .contributing(to: (any Runnable).self, named: "services") { $0 }
        }
        #expect(try await injector.get([any Runnable].self, named: "services").count == 1)
        #expect(try await injector.getIfBound([any Runnable].self) == nil)
    }
}
