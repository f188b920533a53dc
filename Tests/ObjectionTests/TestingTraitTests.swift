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
    /// An element of a collection that modules contribute to or bind directly.
    final class Plugin: Sendable {}

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

    @Test("a later module's direct binding of a collection replaces earlier contributions (trait overrides)")
    func traitOverrideOfCollection() async throws {
        struct Plugins: Module {
            func configure(_ binder: Binder) {
                binder.contribute(Plugin.self).toInstance(Plugin())
            }
        }
        struct NoPlugins: Module {
            func configure(_ binder: Binder) {
                binder.bind([Plugin].self).toInstance([])
            }
        }
        // With a child injector (before 0daafac) the override bound [Plugin] in its own table;
        // with one injector it is "'[Plugin]' is bound both directly and by contributions".
        let trait = InjectorTrait.injector(modules: [Plugins()], overriding: [NoPlugins()])
        let test = try #require(Test.current)
        try await trait.provideScope(for: test, testCase: nil) {
            let plugins = try await #require(InjectorActor.current).get([Plugin].self)
            #expect(plugins.isEmpty)
        }
    }

    @Test("concurrent tests never see each other's injector or overrides")
    func isolation() async throws {
        let test = try #require(Test.current)
        let bothInside = Gate()
        let arrivals = Counter()
        // The engines themselves, kept alive: identifiers of freed ones could share an address.
        let engines = Lock<[Engine]>([])
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
                        engines.withLock { $0.append(engine) }
                    }
                }
            }
            try await group.waitForAll()
        }
        let built = engines.withLock { $0 }
        #expect(built.count == 2 && built[0] !== built[1])
        #expect(InjectorActor.taskCurrent == nil)
    }

    @Test("a dispose() that throws at teardown is recorded as an issue of the test, at the test")
    func recordsDisposalFailures() async throws {
        let test = try #require(Test.current)
        let log = Log()
        let trait = InjectorTrait.injector(modules: [FailingPoolModule(log: log)])
        try await withKnownIssue("the pool's dispose() throws") {
            try await trait.provideScope(for: test, testCase: nil) {
                _ = try await #require(InjectorActor.current).get(Resource.self)
            }
        } matching: { issue in
            issue.error as? ProviderFailure == ProviderFailure(attempt: 99)
                && issue.sourceLocation == test.sourceLocation
        }
        #expect(log.values == ["pool"])
    }

    @Test("a disposal failure does not hide the error the test threw, nor the other way round")
    func reportsBothFailures() async throws {
        let test = try #require(Test.current)
        let trait = InjectorTrait.injector(modules: [FailingPoolModule(log: Log())])
        await withKnownIssue("the pool's dispose() throws") {
            await #expect(throws: ProviderFailure(attempt: 1)) {
                try await trait.provideScope(for: test, testCase: nil) {
                    _ = try await #require(InjectorActor.current).get(Resource.self)
                    throw ProviderFailure(attempt: 1)
                }
            }
        } matching: { issue in
            issue.error as? ProviderFailure == ProviderFailure(attempt: 99)
        }
    }
}

/// A singleton pool whose `dispose()` throws.
struct FailingPoolModule: Module {
    let log: Log

    func configure(_ binder: Binder) {
        binder.bind(Resource.self).to { [log] _ in Resource("pool", log: log, fails: true) }.asSingleton()
    }
}

/// A singleton that counts the tests that used it: each test expects to be its first user.
final class Tally: Sendable {
    private let users = Counter()

    /// Records a user, and checks that no earlier test shared this injector's singletons.
    func expectFirstUser(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(users.increment() == 1, "another test used this injector", sourceLocation: sourceLocation)
    }
}

struct TallyModule: Module {
    func configure(_ binder: Binder) {
        binder.bind(Tally.self).to(Tally.init).asSingleton()
    }
}

extension TestingTraitTests {
    /// Every test here resolves the same singleton and expects to be its only user: one injector
    /// around the whole suite would fail all but the first of them.
    @Suite("on a suite, each test gets a fresh injector", .injector(modules: [TallyModule()]))
    struct OnASuite {
        @Test("one test")
        func first() async throws {
            try await #require(InjectorActor.current).get(Tally.self).expectFirstUser()
        }

        @Test("another test")
        func second() async throws {
            try await #require(InjectorActor.current).get(Tally.self).expectFirstUser()
        }

        @Test("each argument of a parameterized test", arguments: 1...3)
        func eachArgument(_ argument: Int) async throws {
            try await #require(InjectorActor.current).get(Tally.self).expectFirstUser()
        }

        @Test(
            "a test's own trait, closest to it, wins over the suite's",
            .injector(modules: [TallyModule(), ConfigModule(dsn: "own")])
        )
        func ownTraitWins() async throws {
            let injector = try #require(InjectorActor.current)
            #expect(try await injector.get(Config.self) == Config(dsn: "own"))
            try await injector.get(Tally.self).expectFirstUser()
        }

        @Suite("a nested suite")
        struct Nested {
            @Test("a test of a nested suite")
            func nested() async throws {
                try await #require(InjectorActor.current).get(Tally.self).expectFirstUser()
            }
        }
    }
}
