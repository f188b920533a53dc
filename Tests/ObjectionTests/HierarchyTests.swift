import Testing

@testable import Objection

@Suite("Child and derived injectors", .hangLimit)
struct HierarchyTests {
    struct BaseModule: Module {
        let built: Counter

        func configure(_ binder: Binder) {
            binder.bind(Config.self).toInstance(Config(dsn: "root"))
            binder.bind((any Database).self).to { [built] r in
                built.increment()
                return try await PostgresDatabase(config: r.get(Config.self))
            }.asSingleton()
            binder.bind(UserRepository.self).to(UserRepository.init)
            binder.bind(Engine.self).to(Engine.init)
        }
    }

    struct TestConfigModule: Module {
        func configure(_ binder: Binder) {
            binder.bind(Config.self).toInstance(Config(dsn: "child"))
        }
    }

    @Test("a child sees its parent's bindings, overrides them, and the parent never sees the child's")
    func visibilityAndOverrides() async throws {
        let root = try await InjectorActor(modules: [BaseModule(built: Counter())])
        let child = try await root.child(modules: [
            TestConfigModule(), TestModule { $0.bind(Wheel.self).to(Wheel.init) },
        ])
        #expect(try await child.get(Config.self) == Config(dsn: "child"))
        #expect(try await root.get(Config.self) == Config(dsn: "root"))
        _ = try await child.get(Engine.self)
        _ = try await child.get(Wheel.self)
        #expect(try await root.getIfBound(Wheel.self) == nil)
    }

    @Test("a parent's singleton is built once, in the parent, with the parent's dependencies")
    func parentSingletonsStayInTheParent() async throws {
        let built = Counter()
        let root = try await InjectorActor(modules: [BaseModule(built: built)])
        let child = try await root.child(modules: [TestConfigModule()])
        let fromChild = try await child.get((any Database).self)
        let fromRoot = try await root.get((any Database).self)
        #expect((fromChild as? PostgresDatabase) === (fromRoot as? PostgresDatabase))
        #expect(fromChild.dsn == "root")
        #expect(built.value == 1)
    }

    @Test("a singleton the child declares or overrides belongs to the child")
    func childSingletons() async throws {
        let root = try await InjectorActor(modules: [
            TestModule { $0.bind(Engine.self).to(Engine.init).asSingleton() }
        ])
        let first = try await root.child(modules: [TestModule { $0.bind(Engine.self).to(Engine.init).asSingleton() }])
        let second = try await root.child(modules: [TestModule { $0.bind(Engine.self).to(Engine.init).asSingleton() }])
        let rootEngine = try await root.get(Engine.self)
        let firstEngine = try await first.get(Engine.self)
        #expect(firstEngine === (try await first.get(Engine.self)))
        #expect(firstEngine !== rootEngine)
        #expect(firstEngine !== (try await second.get(Engine.self)))
    }

    @Test("an inherited transient is built in the injector that asked, so the child's overrides reach it")
    func inheritedTransientsSeeOverrides() async throws {
        let root = try await InjectorActor(modules: [
            TestModule { binder in
                binder.bind(Config.self).toInstance(Config(dsn: "root"))
                binder.bind((any Database).self).to(PostgresDatabase.init)
                binder.bind(UserRepository.self).to(UserRepository.init)
            }
        ])
        let child = try await root.child(modules: [TestConfigModule()])
        #expect(try await child.get(UserRepository.self).database.dsn == "child")
        #expect(try await root.get(UserRepository.self).database.dsn == "root")
    }

    @Test(
        "a synchronous graph that gives way to an override is attempted once per get, from get and from a resolver",
        arguments: [false, true]
    )
    func synchronousAttemptIsMadeOnce(throughResolver: Bool) async throws {
        final class Front: Sendable {
            init(counter: Log) { counter.append("Front") }
        }
        final class Back: Sendable {}
        final class Pair: Sendable {
            let front: Front
            init(front: Front, back: Back) { self.front = front }
        }
        final class Holder: Sendable {
            let pair: Pair
            init(pair: Pair) { self.pair = pair }
        }
        let counter = Log()
        let root = try await makeInjector { binder in
            binder.bind(Log.self).toInstance(counter)
            binder.bind(Front.self).to(Front.init)
            binder.bind(Back.self).to(Back.init)
            binder.bind(Pair.self).to(Pair.init)
            binder.bind(Holder.self).to { r in Holder(pair: try await r.get(Pair.self)) }
        }
        // The child's Back is a closure: the root's plan for Pair builds Front with plain calls,
        // meets the override, and gives way; the asynchronous path then builds Front again.
        let child = try await root.child(modules: [TestModule { $0.bind(Back.self).to { _ in Back() } }])
        if throughResolver {
            _ = try await child.get(Holder.self)
        } else {
            _ = try await child.get(Pair.self)
        }
        #expect(counter.values.count == 2)
    }

    @Test("an inherited synchronous graph takes every kind of override, built or not, suspending or not")
    func inheritedSynchronousGraphSeesOverrides() async throws {
        let root = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init).asSingleton()
            binder.bind(Wheel.self).to(Wheel.init)
            binder.bind(Car.self).to(Car.init)
        }
        // Warm the root: its plan now builds Car with plain calls, reading its built Engine.
        let rootCar = try await root.get(Car.self)
        #expect(try await root.get(Car.self).engine === rootCar.engine)

        let spare = Wheel()
        let withInstance = try await root.child(modules: [TestModule { $0.bind(Wheel.self).toInstance(spare) }])
        #expect(try await withInstance.get(Car.self).wheel === spare)
        #expect(try await withInstance.get(Car.self).engine === rootCar.engine)

        let suspending = try await root.child(modules: [
            TestModule { binder in
                binder.bind(Wheel.self).to { _ in
                    await Task.yield()
                    return spare
                }
            }
        ])
        #expect(try await suspending.get(Car.self).wheel === spare)

        // The child's own singleton is not built yet when the inherited graph first reads it.
        let ownEngine = try await root.child(modules: [
            TestModule { $0.bind(Engine.self).to(Engine.init).asSingleton() }
        ])
        let childCar = try await ownEngine.get(Car.self)
        #expect(childCar.engine !== rootCar.engine)
        #expect(try await ownEngine.get(Car.self).engine === childCar.engine)
        #expect(try await root.get(Car.self).engine === rootCar.engine)
    }

    @Test("a child's eager singletons are built when it is created")
    func childEagerSingletons() async throws {
        let built = Counter()
        let root = try await InjectorActor(modules: [TestModule { $0.bind(Wheel.self).to(Wheel.init) }])
        _ = try await root.child(modules: [
            TestModule {
                $0.bind(Engine.self).to { _ in
                    built.increment(); return Engine()
                }.asEagerSingleton()
            }
        ])
        #expect(built.value == 1)
    }

    @Test("creating a child shares the parent's table instead of copying it")
    func childSharesTable() async throws {
        let root = try await InjectorActor(modules: [
            TestModule { binder in
                for index in 0..<1_000 { binder.bind(Int.self, named: "\(index)").toInstance(index) }
            }
        ])
        let child = try await root.child(modules: [TestModule { $0.bind(Engine.self).to(Engine.init) }])
        #expect(child.table.parent === root.table)
        #expect(child.table.bindings.count == 1)
        #expect(try await child.get(Int.self, named: "999") == 999)
    }

    @Test("withModules derives a new root with its own singletons; the original is unchanged")
    func withModules() async throws {
        let built = Counter()
        let root = try await InjectorActor(modules: [BaseModule(built: built)])
        let derived = try await root.withModules([
            TestConfigModule(), TestModule { $0.bind(Wheel.self).to { _ in Wheel() }.asEagerSingleton() },
        ])
        #expect(try await derived.get(Config.self) == Config(dsn: "child"))
        #expect(try await derived.get((any Database).self).dsn == "child")
        #expect(try await root.get((any Database).self).dsn == "root")
        #expect(built.value == 2)
        #expect(try await root.getIfBound(Wheel.self) == nil)
        _ = try await derived.get(Wheel.self)
    }

    @Test("withoutModules drops a module's bindings: its own keys become unbound, its overrides fall back")
    func withoutModules() async throws {
        struct Level17Module: Module {
            func configure(_ binder: Binder) {
                binder.bind(Config.self).toInstance(Config(dsn: "level17"))
                binder.bind(Wheel.self).to(Wheel.init)
            }
        }
        let root = try await InjectorActor(modules: [BaseModule(built: Counter()), Level17Module()])
        let without = try await root.withoutModules(ofType: Level17Module.self)
        #expect(try await root.get(Config.self) == Config(dsn: "level17"))
        #expect(try await without.get(Config.self) == Config(dsn: "root"))
        #expect(try await without.getIfBound(Wheel.self) == nil)
        _ = try await root.get(Wheel.self)
    }

    @Test("a singleton reached from parent and children at once is built once, without deadlock")
    func concurrentHierarchy() async throws {
        let built = Counter()
        let release = Gate()
        let root = try await InjectorActor(modules: [
            TestModule { binder in
                binder.bind(Engine.self).to { _ in
                    built.increment()
                    await release.wait()
                    return Engine()
                }.asSingleton()
                binder.bind(Car.self).to(Car.init)
                binder.bind(Wheel.self).to(Wheel.init)
            }
        ])
        var children: [InjectorActor] = []
        for _ in 0..<4 {
            children.append(try await root.child(modules: [TestModule { $0.bind(Wheel.self).to(Wheel.init) }]))
        }
        let injectors = [root] + children
        let engines = try await withThrowingTaskGroup(of: Engine.self) { group in
            for index in 0..<500 {
                let injector = injectors[index % injectors.count]
                group.addTask { try await injector.get(Car.self).engine }
            }
            await waitUntil { await root.callersWaiting(for: BindingKey(Engine.self)) == 500 }
            release.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(built.value == 1)
        #expect(Set(engines.map(ObjectIdentifier.init)).count == 1)
    }
}
