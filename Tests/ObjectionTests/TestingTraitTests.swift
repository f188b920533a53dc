import ObjectionTesting
import Testing

@testable import Objection

struct ConfigModule: Module {
    let dsn: String

    func configure(_ binder: Binder) {
        binder.bind(Config.self).toInstance(Config(dsn: dsn))
        binder.bind(Engine.self).to(Engine.init).asSingleton()
    }
}

/// A singleton of the application that depends on its configuration.
final class Store: Sendable {
    let config: Config
    init(config: Config) { self.config = config }
}

struct StoreModule: Module {
    func configure(_ binder: Binder) {
        binder.bind(Store.self).to(Store.init).asSingleton()
    }
}

@Suite("The injector test trait")
struct TestingTraitTests {
    @Test(
        "a test runs with its own injector and overrides, as the current injector",
        .injector(modules: [ConfigModule(dsn: "production")], overriding: [ConfigModule(dsn: "test")])
    )
    func overrides() async throws {
        let injector = try #require(InjectorActor.current)
        #expect(try await injector.get(Config.self) == Config(dsn: "test"))
    }

    @Test(
        "an override reaches the dependencies of the application's singletons",
        .injector(modules: [ConfigModule(dsn: "production"), StoreModule()], overriding: [ConfigModule(dsn: "test")])
    )
    func overridesReachSingletons() async throws {
        let store = try await #require(InjectorActor.current).get(Store.self)
        #expect(store.config == Config(dsn: "test"))
    }

    @Test("concurrent tests never see each other's injector or overrides")
    func isolation() async throws {
        let test = try #require(Test.current)
        let bothInside = Gate()
        let arrivals = Counter()
        let engines = Lock<[ObjectIdentifier]>([])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for dsn in ["first", "second"] {
                let trait = InjectorTrait.injector(
                    modules: [ConfigModule(dsn: "production")],
                    overriding: [ConfigModule(dsn: dsn)]
                )
                group.addTask {
                    try await trait.provideScope(for: test, testCase: nil) {
                        if arrivals.increment() == 2 { bothInside.open() }
                        await bothInside.wait()
                        let injector = try #require(InjectorActor.current)
                        #expect(try await injector.get(Config.self) == Config(dsn: dsn))
                        let engine = try await injector.get(Engine.self)
                        engines.withLock { $0.append(ObjectIdentifier(engine)) }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(Set(engines.withLock { $0 }).count == 2)
        #expect(InjectorActor.taskCurrent == nil)
    }
}
