import Objection
import Synchronization
import Testing

// The code of the "Objective-IOC" section of ComingFromObjection.md, compiled and exercised. Only
// the public API is imported, as a user's module would.

// MARK: - Components and roles

/// The README's container, as a module: an instance, classes, a role and a cached component.
private struct ComponentsModule: Module {
    let config: Config

    func configure(_ binder: Binder) {
        binder.bind(Config.self).toInstance(config)  // addComponent: an instance
        binder.bind(PostgresDatabase.self).to(PostgresDatabase.init).asSingleton()  // a class, withCache
        binder.bind((any Database).self).to(PostgresDatabase.self)  // representing: @protocol(Database)
        binder.bind((any Database).self, named: "reports").to(provider: ReplicaProvider(replica: "reports"))
        binder.bind(NextController.self)
            .to(provider: NextControllerProvider(), arguments: String.self)
            .defaults("NextController")  // withInitSelector:params:
        binder.bind(MainController.self).to(MainController.init)
    }
}

// MARK: - Property injection

/// Objective-IOC's `MainController`: collaborators set after `init`, by type or by name, one of
/// them lazily.
private final class MainController: PropertyInjectable, @unchecked Sendable {  // set once, by the injector
    var database: (any Database)?  // an `inj` ivar: autowired by its type
    var reports: (any Database)?  // withDepsDictionary: the binding is chosen by name
    var next: Lazy<NextController>?  // @dynamic: built on first use
    private(set) var isReady = false

    static var injectedProperties: [InjectedProperty] {
        [
            .property(\MainController.database),
            .property(\MainController.reports, named: "reports"),
            .property(\MainController.next),
        ]
    }

    func awakeFromInjection() async throws {
        isReady = database != nil && reports != nil && next != nil
    }
}

// MARK: - Your own injection type: a provider

/// Decides how its component is built, as an Objective-IOC injection type would.
private struct ReplicaProvider: Provider {
    let replica: String

    func provide(_ resolver: Resolver) async throws -> any Database {
        let primary = try await resolver.get(Config.self)
        return PostgresDatabase(config: Config(dsn: "\(primary.dsn)?replica=\(replica)"))
    }
}

/// A controller that `withInitSelector:params:` would have built from a nib name.
private final class NextController: Sendable {
    let nibName: String
    let database: any Database

    init(nibName: String, database: any Database) {
        self.nibName = nibName
        self.database = database
    }
}

/// `withInitSelector:params:` as a provider of runtime arguments, with the README's as defaults.
private struct NextControllerProvider: ArgumentProvider {
    func provide(_ resolver: Resolver, arguments nibName: String) async throws -> NextController {
        NextController(nibName: nibName, database: try await resolver.get((any Database).self))
    }
}

// MARK: - Your own caching strategy

/// Offers the instance it keeps until `lifetime` has passed on `clock`; then the injector builds a
/// new one.
private final class TimeToLiveCache<C: Clock>: ScopeCache {
    private let clock: C
    private let lifetime: C.Duration
    private let entry = Mutex<(instance: (any Sendable)?, expiry: C.Instant?)>((nil, nil))

    init(lifetime: C.Duration, clock: C) {
        self.lifetime = lifetime
        self.clock = clock
    }

    func cachedInstance<T: Sendable>(as type: T.Type) -> T? {
        let now = clock.now
        return entry.withLock { entry in
            guard let expiry = entry.expiry, now < expiry else { return nil }
            return entry.instance as? T
        }
    }

    func keep<T: Sendable>(_ instance: T) {
        let expiry = clock.now.advanced(by: lifetime)
        entry.withLock { $0 = (instance, expiry) }
    }
}

extension Scope {
    /// Each binding in this scope keeps its instance for `lifetime`, in a cache of its own.
    fileprivate static func expiring(
        after lifetime: Duration,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Scope {
        .custom("expiring after \(lifetime)") { TimeToLiveCache(lifetime: lifetime, clock: clock) }
    }
}

// MARK: - Test scaffolding

/// A clock that moves only when a test advances it.
private final class ManualClock: Clock {
    struct Instant: InstantProtocol {
        let offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let elapsed = Mutex(Duration.zero)

    var now: Instant { Instant(offset: elapsed.withLock { $0 }) }
    var minimumResolution: Duration { .zero }

    func advance(by duration: Duration) {
        elapsed.withLock { $0 += duration }
    }

    /// Returns once a test has advanced the clock to `deadline`; the tests here never call it.
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        while now < deadline {
            try Task.checkCancellation()
            await Task.yield()
        }
    }
}

private func makeComponents() async throws -> InjectorActor {
    try await InjectorActor(modules: [ComponentsModule(config: Config(dsn: "postgres://db"))])
}

@Suite("Coming from Objective-IOC: components, roles, injection types and caching strategies")
struct ObjectiveIOCMappingTests {
    @Test("the container: an instance, a cached class and a role, all reached from one get")
    func components() async throws {
        let injector = try await makeComponents()
        let main = try await injector.get(MainController.self)
        let database = try #require(main.database as? PostgresDatabase)
        #expect(database.dsn == "postgres://db")
        #expect(database === (try await injector.get(PostgresDatabase.self)))
        #expect(try await injector.get((any Database).self) as? PostgresDatabase === database)
    }

    @Test("property injection: key paths set by type and by name, a lazy collaborator, then the awake hook")
    func propertyInjection() async throws {
        let injector = try await makeComponents()
        let main = try await injector.get(MainController.self)
        #expect(main.isReady)
        #expect(main.reports?.dsn == "postgres://db?replica=reports")
        let next = try await #require(main.next).value
        #expect(next.nibName == "NextController")
        #expect(next.database as? PostgresDatabase === main.database as? PostgresDatabase)
        #expect(try await #require(main.next).value === next)
    }

    @Test("injectDependencies fills an object built elsewhere and awakes it")
    func injectionIntoAnObjectBuiltElsewhere() async throws {
        let injector = try await makeComponents()
        let main = MainController()  // built by a framework, say, not by the injector
        #expect(!main.isReady)
        try await injector.injectDependencies(into: main)
        #expect(main.isReady)
        #expect(main.database is PostgresDatabase)
        #expect(main.reports?.dsn == "postgres://db?replica=reports")
    }

    @Test("a user-written provider builds its component from what it resolves, in the binding's scope")
    func providerObject() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Config.self).toInstance(Config(dsn: "postgres://db"))
            binder.bind((any Database).self).to(provider: ReplicaProvider(replica: "eu-1")).asSingleton()
        }
        let database = try await injector.get((any Database).self)
        #expect(database.dsn == "postgres://db?replica=eu-1")
        #expect(try await injector.get((any Database).self) as AnyObject === database as AnyObject)
    }

    @Test("an argument provider with defaults stands in for withInitSelector:params:")
    func argumentProvider() async throws {
        let injector = try await makeComponents()
        let next = try await injector.get(NextController.self)
        let settings = try await injector.get(NextController.self, arguments: "SettingsController")
        #expect(next.nibName == "NextController")
        #expect(settings.nibName == "SettingsController")
        #expect(settings !== next)
    }

    @Test("a user-written cache: the same instance within its lifetime, a new one after, one cache per binding")
    func timeToLiveCache() async throws {
        let clock = ManualClock()
        let enginesBuilt = Counter()
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to { _ in
                enginesBuilt.increment()
                return Engine()
            }.inScope(.expiring(after: .seconds(60), clock: clock))
            binder.bind(Wheel.self).to(Wheel.init).inScope(.expiring(after: .seconds(60), clock: clock))
        }
        let first = try await injector.get(Engine.self)
        clock.advance(by: .seconds(59))
        #expect(try await injector.get(Engine.self) === first)
        let wheel = try await injector.get(Wheel.self)  // kept at 59 s, so it lasts until 119 s
        #expect(enginesBuilt.value == 1)

        clock.advance(by: .seconds(1))
        let second = try await injector.get(Engine.self)
        #expect(second !== first)
        #expect(enginesBuilt.value == 2)
        #expect(try await injector.get(Engine.self) === second)
        #expect(try await injector.get(Wheel.self) === wheel)

        clock.advance(by: .seconds(59))
        #expect(try await injector.get(Wheel.self) !== wheel)
        #expect(try await injector.get(Engine.self) === second)
    }

    @Test("the expiring scope defaults to the continuous clock and is named by its lifetime")
    func expiringScopeName() {
        #expect(Scope.expiring(after: .seconds(60)).description == "expiring after 60.0 seconds")
        #expect(Scope.expiring(after: .seconds(60)) != Scope.expiring(after: .seconds(30)))
    }
}
