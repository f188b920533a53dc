import Logging
import Objection
import ObjectionServiceLifecycle
import ServiceLifecycle
import Synchronization
import TestSupport

/// A client whose requests are answered only once its `run()` has started, as a database client's
/// travel through its run loop; it runs until graceful shutdown.
final class FakeDatabase: Service, AsyncDisposable {
    /// A value the tests check no description or log shows.
    let password = "hunter2"
    let log: EventLog
    /// Fired when `run()` starts.
    let running = Signal()
    private let runs = Mutex(0)

    /// How many times `run()` was called.
    var runCount: Int { runs.withLock { $0 } }

    init(log: EventLog) {
        self.log = log
    }

    func run() async throws {
        runs.withLock { $0 += 1 }
        log.record("database run started")
        running.fire()
        // Cancellation also ends the wait.
        try? await gracefulShutdown()
        log.record("database run ended")
    }

    /// Answers once `run()` has started; until then it waits, cancellably.
    func query() async throws -> Int {
        try await running.wait()
        return 1
    }

    func dispose() async throws {
        log.record("database disposed")
    }
}

/// An eager singleton that queries the database while it is built.
final class Repository: AsyncDisposable {
    let log: EventLog

    init(database: FakeDatabase, log: EventLog) async throws {
        _ = try await database.query()
        self.log = log
        log.record("repository built")
    }

    func dispose() async throws {
        log.record("repository disposed")
        if Task.isCancelled { log.record("repository disposed in a cancelled task") }
    }
}

/// Stands in for an HTTP server listed after the injector service.
struct FakeServer: Service {
    let log: EventLog
    let running = Signal()

    func run() async throws {
        log.record("server run started")
        running.fire()
        try? await gracefulShutdown()
        log.record("server run ended")
    }
}

/// A provider error whose description carries a value that must not be logged.
struct SecretError: Error, CustomStringConvertible {
    var secret = "hunter2"
    var description: String { "failed with \(secret)" }
}

/// The graph under test: a database client, marked as a service or not, and an eager repository
/// that needs it, or one whose provider throws.
struct AppModule: Module {
    let log: EventLog
    var databaseIsService = true
    var repositoryFails = false
    /// Fired when the repository is built.
    let repositoryBuilt: Signal

    func configure(_ binder: Binder) {
        let database = binder.bind(FakeDatabase.self).to { [log] _ in FakeDatabase(log: log) }
        if databaseIsService {
            database.asService()
        } else {
            database.asSingleton()
        }
        binder.bind(Repository.self)
            .to { [log, repositoryFails, repositoryBuilt] resolver in
                if repositoryFails { throw SecretError() }
                let repository = try await Repository(database: resolver.get(FakeDatabase.self), log: log)
                repositoryBuilt.fire()
                return repository
            }
            .asEagerSingleton()
    }
}

/// Records in an ``EventLog`` when the injector starts building a cached instance.
struct ConstructionRecorder: InjectionObserver {
    let log: EventLog

    func constructionStarted(_ key: BindingKey, scope: Scope) {
        log.record("building \(key)")
    }
}

/// A test's fakes and the injector built from them, created with a deferred start.
struct Fixture {
    let log = EventLog()
    let repositoryBuilt = Signal()
    let injector: InjectorActor

    /// - Parameter observer: The injector's observer; by default, one that records in ``log``
    ///   when each construction starts.
    init(
        databaseIsService: Bool = true,
        repositoryFails: Bool = false,
        stage: Stage = .development,
        observer: (any InjectionObserver)? = nil
    ) async throws {
        let module = AppModule(
            log: log,
            databaseIsService: databaseIsService,
            repositoryFails: repositoryFails,
            repositoryBuilt: repositoryBuilt
        )
        injector = try await InjectorActor(
            modules: [module],
            stage: stage,
            startup: .deferred,
            observer: observer ?? ConstructionRecorder(log: log)
        )
    }

    /// The events that end things, in order: services' `run()` returning and disposals.
    var endings: [String] {
        log.all.filter { $0.hasSuffix("ended") || $0.hasSuffix("disposed") }
    }
}

/// A clock that records its life.
final class Clock: AsyncDisposable {
    let log: EventLog

    init(log: EventLog) {
        self.log = log
        log.record("clock built")
    }

    func dispose() async throws {
        log.record("clock disposed")
    }
}

/// One eager singleton and no service.
struct EagerOnlyModule: Module {
    let log: EventLog
    let built: Signal

    func configure(_ binder: Binder) {
        binder.bind(Clock.self)
            .to { [log, built] _ in
                defer { built.fire() }
                return Clock(log: log)
            }
            .asEagerSingleton()
    }
}

/// A service known by its binding's name, which it logs when its `run()` ends.
final class NamedService: Service {
    let name: String
    let log: EventLog
    let running = Signal()

    init(name: String, log: EventLog) {
        self.name = name
        self.log = log
    }

    func run() async throws {
        running.fire()
        try? await gracefulShutdown()
        log.record("\(name) ended")
    }
}

/// Two named services, declared first then second.
struct TwoServicesModule: Module {
    let log: EventLog

    func configure(_ binder: Binder) {
        for name in ["first", "second"] {
            binder.bind(NamedService.self, named: name).to { [log] _ in NamedService(name: name, log: log) }.asService()
        }
    }
}

/// A clock disposed normally and a server whose disposal throws.
struct FailingDisposalModule: Module {
    func configure(_ binder: Binder) {
        let log = EventLog()
        binder.bind(Clock.self).to { _ in Clock(log: log) }.asSingleton()
        binder.bind(FakeServer.self).to { _ in FakeServer(log: log) }.asSingleton().onDispose { _ in throw SecretError()
        }
    }
}

/// A service that throws once it runs, declared after one that runs until it is ended.
struct ThrowingServiceModule: Module {
    let log: EventLog

    func configure(_ binder: Binder) {
        binder.bind(NamedService.self, named: "steady").to { [log] _ in NamedService(name: "steady", log: log) }
            .asService()
        binder.bind(ThrowingService.self).to { _ in ThrowingService() }.asService()
    }
}

/// Throws as soon as it runs.
struct ThrowingService: Service {
    func run() async throws {
        throw SecretError()
    }
}

/// An eager singleton whose disposal throws, and one built after it whose provider throws.
struct FailingStartModule: Module {
    func configure(_ binder: Binder) {
        binder.bind(FakeServer.self).to { _ in FakeServer(log: EventLog()) }.asEagerSingleton()
            .onDispose { _ in throw SecretError() }
        binder.bind(Clock.self)
            .to { resolver in
                _ = try await resolver.get(FakeServer.self)
                throw SecretError()
            }
            .asEagerSingleton()
    }
}

/// A logger that drops everything.
let quietLogger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

/// Runs `group` while `body` runs, then shuts it down gracefully and waits for it to end.
///
/// - Returns: What `body` returns.
/// - Throws: What `body` or the group throws.
func whileRunning<T: Sendable>(
    _ group: ServiceGroup,
    _ body: @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask { try await group.run() }
        do {
            let result = try await body()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return result
        } catch {
            tasks.cancelAll()
            throw error
        }
    }
}
