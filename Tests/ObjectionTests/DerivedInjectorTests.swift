import Testing

@testable import Objection

@Suite("Derived injectors without several modules")
struct DerivedInjectorTests {
    /// Binds the root `Config` and an eager singleton that counts how often it is built.
    struct BaseModule: Module {
        let built: Counter

        func configure(_ binder: Binder) {
            binder.bind(Config.self).toInstance(Config(dsn: "root"))
            binder.bind(Engine.self).to { [built] _ in
                built.increment()
                return Engine()
            }.asEagerSingleton()
        }
    }

    struct Level17Module: Module {
        func configure(_ binder: Binder) {
            binder.bind(Config.self).toInstance(Config(dsn: "level17"))
            binder.bind(Wheel.self).to(Wheel.init)
        }
    }

    struct Level18Module: Module {
        func configure(_ binder: Binder) {
            binder.bind(Config.self).toInstance(Config(dsn: "level18"))
            binder.bind(Headlight.self, named: "left").toInstance(Headlight(side: .left))
        }
    }

    struct KeptModule: Module {
        func configure(_ binder: Binder) {
            binder.bind(Headlight.self, named: "right").toInstance(Headlight(side: .right))
        }
    }

    @Test("withoutModules(ofTypes:) builds one injector and its eager singletons once; chaining builds each step")
    func oneInjector() async throws {
        let built = Counter()
        let root = try await InjectorActor(modules: [BaseModule(built: built), Level17Module(), Level18Module()])
        #expect(built.value == 1)

        _ = try await root.withoutModules(ofType: Level17Module.self).withoutModules(ofType: Level18Module.self)
        #expect(built.value == 3)

        _ = try await root.withoutModules(ofTypes: [Level17Module.self, Level18Module.self])
        #expect(built.value == 4)
    }

    @Test("dropped modules' keys become unbound, keys they overrode fall back, and the original is unchanged")
    func bindingsDropped() async throws {
        let root = try await InjectorActor(modules: [
            BaseModule(built: Counter()), Level17Module(), KeptModule(), Level18Module(),
        ])
        let trimmed = try await root.withoutModules(ofTypes: [Level17Module.self, Level18Module.self])

        #expect(try await trimmed.get(Config.self) == Config(dsn: "root"))
        #expect(!trimmed.hasBinding(for: Wheel.self))
        #expect(!trimmed.hasBinding(for: Headlight.self, named: "left"))
        #expect(try await trimmed.get(Headlight.self, named: "right").side == .right)
        #expect(trimmed.modules.count == 2)

        #expect(try await root.get(Config.self) == Config(dsn: "level18"))
        #expect(root.hasBinding(for: Wheel.self) && root.hasBinding(for: Headlight.self, named: "left"))
    }

    @Test("every module of a listed type is dropped, and a listed type the stack lacks is ignored")
    func matching() async throws {
        let root = try await InjectorActor(modules: [BaseModule(built: Counter()), Level17Module(), Level17Module()])
        let trimmed = try await root.withoutModules(ofTypes: [Level17Module.self, Level18Module.self, KeptModule.self])
        #expect(try await trimmed.get(Config.self) == Config(dsn: "root"))
        #expect(trimmed.modules.count == 1)

        let same = try await root.withoutModules(ofTypes: [])
        #expect(try await same.get(Config.self) == Config(dsn: "level17"))
        #expect(same !== root)
    }

    @Test("withoutModules(ofType:) is the one-type case of withoutModules(ofTypes:)")
    func singleType() async throws {
        let built = Counter()
        let root = try await InjectorActor(modules: [BaseModule(built: built), Level18Module(), Level17Module()])
        let without = try await root.withoutModules(ofType: Level17Module.self)
        #expect(try await without.get(Config.self) == Config(dsn: "level18"))
        #expect(!without.hasBinding(for: Wheel.self))
        #expect(built.value == 2)
    }
}
