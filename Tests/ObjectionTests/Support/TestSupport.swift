import Testing

@testable import Objection

/// A one-shot gate: tasks `wait()` until someone `open()`s it. Deterministic, no sleeping.
final class Gate: Sendable {
    private let state = Lock<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let count = Lock(0)

    var value: Int { count.withLock { $0 } }

    @discardableResult
    func increment() -> Int {
        count.withLock {
            $0 += 1; return $0
        }
    }

    @discardableResult
    func decrement() -> Int {
        count.withLock {
            $0 -= 1; return $0
        }
    }
}

/// Yields until `condition` holds, or the test's time limit cancels it. Used to wait for a state
/// the injector reports (a stampede formed), never for a duration.
func waitUntil(_ condition: () async -> Bool) async {
    while await !condition() {
        if Task.isCancelled {
            Issue.record("cancelled while waiting for a condition")
            return
        }
        await Task.yield()
    }
}

/// What ``withDeadline(seconds:_:)`` throws when the operation is still running at its deadline.
struct Hung: Error, CustomStringConvertible {
    let seconds: Int
    var description: String { "still running after \(seconds) s: a hang" }
}

/// Runs `operation` and returns its outcome, or throws ``Hung`` if it has not finished within
/// `seconds` (``hangDeadline``, five minutes, unless told). Passing runs never wait for the
/// deadline; it exists so that a deadlock — tasks suspended forever, which Swift Testing's time
/// limit cannot end — fails the test instead of hanging the whole run. The hung work is abandoned.
/// Only a guard against a hang: nothing a test checks may depend on it.
func withDeadline<T: Sendable>(
    seconds: Int = hangDeadline,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let pending = Lock<CheckedContinuation<T, any Error>?>(nil)
    let result = try await withCheckedThrowingContinuation { continuation in
        pending.withLock { $0 = continuation }
        let watchdog = Lock<Task<Void, Never>?>(nil)
        @Sendable func finish(_ result: Result<T, any Error>) {
            let waiting = pending.withLock { waiting in
                defer { waiting = nil }
                return waiting
            }
            waiting?.resume(with: result)
            watchdog.withLock { $0 }?.cancel()
        }
        watchdog.withLock { task in
            task = Task {
                guard (try? await Task.sleep(for: .seconds(seconds))) != nil else { return }
                finish(.failure(Hung(seconds: seconds)))
            }
        }
        Task {
            do {
                finish(.success(try await operation()))
            } catch {
                finish(.failure(error))
            }
        }
    }
    // The lock `finish` took, taken again here: what the operation built on another thread is
    // read after it in a way the thread sanitizer sees. The continuation's hand-over between
    // threads may pass through the concurrency runtime's own atomics, which it does not; under
    // load it once reported the test's reads of an injector the operation made as a race.
    pending.withLock { _ in }
    return result
}

/// Binds `Engine` and `Wheel` as singletons whose providers each wait for the other to start:
/// they can only finish when the two are built concurrently.
func bindRendezvous(_ binder: Binder, eager: Bool) {
    let engineStarted = Gate()
    let wheelStarted = Gate()
    let engine = binder.bind(Engine.self).to { _ in
        engineStarted.open()
        await wheelStarted.wait()
        return Engine()
    }
    let wheel = binder.bind(Wheel.self).to { _ in
        wheelStarted.open()
        await engineStarted.wait()
        return Wheel()
    }
    if eager {
        engine.asEagerSingleton()
        wheel.asEagerSingleton()
    } else {
        engine.asSingleton()
        wheel.asSingleton()
    }
}

/// An error thrown by test providers, to check that errors reach callers unchanged.
struct ProviderFailure: Error, Equatable {
    let attempt: Int
}

/// A module built from a closure, so each test can declare exactly the bindings it needs.
struct TestModule: Module {
    let body: @Sendable (Binder) -> Void

    init(_ body: @escaping @Sendable (Binder) -> Void) {
        self.body = body
    }

    func configure(_ binder: Binder) { body(binder) }
}

/// Builds an injector from one closure module.
func makeInjector(_ body: @escaping @Sendable (Binder) -> Void) async throws -> InjectorActor {
    try await InjectorActor(modules: [TestModule(body)])
}

/// The `InjectionError` that `body` throws, or a recorded failure.
func injectionError(_ body: () async throws -> Void) async -> InjectionError? {
    do {
        try await body()
        Issue.record("expected an InjectionError, but nothing was thrown")
    } catch let error as InjectionError {
        return error
    } catch {
        Issue.record("expected an InjectionError, got \(type(of: error)): \(error)")
    }
    return nil
}

// MARK: - Fixture types

final class Engine: Sendable {}
final class Wheel: Sendable {}

final class Car: Sendable {
    let engine: Engine
    let wheel: Wheel
    init(engine: Engine, wheel: Wheel) {
        self.engine = engine
        self.wheel = wheel
    }
}

struct Config: Sendable, Equatable {
    let dsn: String
}

protocol Database: Sendable {
    var dsn: String { get }
}

final class PostgresDatabase: Database {
    let dsn: String
    init(config: Config) { self.dsn = config.dsn }
}

final class UserRepository: Sendable {
    let database: any Database
    init(database: any Database) { self.database = database }
}

enum Side: Sendable { case left, right }

final class Headlight: Sendable {
    let side: Side
    init(side: Side) { self.side = side }
}

/// A superclass for class-to-superclass bindings; stateless, so sharing it across tasks is safe.
class Vehicle: @unchecked Sendable {}
final class Truck: Vehicle, @unchecked Sendable {}

/// Distinct types for cycle and depth tests.
final class NodeA: Sendable {}
final class NodeB: Sendable {}
final class NodeC: Sendable {}
final class NodeD: Sendable {}

/// Two types whose initializers need each other: an autowired cycle.
final class Chicken: Sendable {
    init(egg: Egg) {}
}

final class Egg: Sendable {
    init(chicken: Chicken) {}
}

/// Holds an injector for providers that call it directly instead of through their resolver.
final class InjectorBox: Sendable {
    private let storage = Lock<InjectorActor?>(nil)

    var injector: InjectorActor? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    func get<T: Sendable>(_ type: T.Type) async throws -> T {
        guard let injector else { throw ProviderFailure(attempt: -1) }
        return try await injector.get(type)
    }
}

/// The outcome of an async throwing call, as a value.
func outcome<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
    do { return .success(try await body()) } catch { return .failure(error) }
}

/// Records names in order, for disposal-order assertions.
final class Log: Sendable {
    private let entries = Lock<[String]>([])

    var values: [String] { entries.withLock { $0 } }

    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
}

/// A disposable resource that records its disposal, and can be told to fail it.
final class Resource: AsyncDisposable {
    let name: String
    let log: Log
    let fails: Bool

    init(_ name: String, log: Log, fails: Bool = false) {
        self.name = name
        self.log = log
        self.fails = fails
    }

    func dispose() async throws {
        log.append(name)
        if fails { throw ProviderFailure(attempt: 99) }
    }
}

/// A request's identity, bound into each request scope.
struct RequestID: Sendable, Equatable {
    let value: Int
}

/// A module binding one request's values.
struct RequestModule: Module {
    let id: Int

    func configure(_ binder: Binder) {
        binder.bind(RequestID.self).toInstance(RequestID(value: id))
    }
}
