import Logging
import LoggingTestSupport
import Objection
import ObjectionVapor
import Synchronization
import TestSupport
import Vapor

/// What the tests' scoped instances report: one built per scope opened, one disposed per scope
/// ended, with the outcome it was disposed after.
final class ScopeLedger: Sendable {
    struct Disposal: Sendable {
        var serial: Int
        var requestID: String
        var error: (any Error)?
    }

    private let state = Mutex<(built: Int, disposed: [Disposal])>((0, []))

    /// A new serial number, one per built instance, from 1.
    func nextSerial() -> Int {
        state.withLock { state in
            state.built += 1
            return state.built
        }
    }

    func record(_ disposal: Disposal) {
        state.withLock { $0.disposed.append(disposal) }
    }

    var built: Int { state.withLock { $0.built } }
    var disposed: [Disposal] { state.withLock { $0.disposed } }
}

/// A per-request unit of work: built once per request scope, disposed when the request ends,
/// told how it ended.
final class RequestWork: OutcomeAwareDisposable {
    let serial: Int
    let requestID: RequestIdentifier
    let ledger: ScopeLedger

    init(serial: Int, requestID: RequestIdentifier, ledger: ScopeLedger) {
        self.serial = serial
        self.requestID = requestID
        self.ledger = ledger
    }

    func dispose(after outcome: ScopeOutcome) async throws {
        ledger.record(.init(serial: serial, requestID: requestID.value, error: outcome.error))
    }
}

/// The authenticated user, which an authenticator logs in from the `Authorization` header.
struct User: Authenticatable, Sendable, Equatable {
    var name: String
}

/// Logs in the user the `Authorization` header names.
struct HeaderAuthenticator: AsyncRequestAuthenticator {
    func authenticate(request: Request) async throws {
        if let name = request.headers.first(name: .authorization) { request.auth.login(User(name: name)) }
    }
}

/// A scoped instance whose disposal fails, as a transaction whose commit fails would.
struct UncommittableTransaction: AsyncDisposable {
    struct CommitFailed: Error {}

    func dispose() async throws {
        throw CommitFailed()
    }
}

/// A type no module binds, whose name must never reach a response.
struct SecretPaymentGateway: Sendable {}

/// A type whose provider fails, with an error whose name and reason must never reach a response.
struct SealedVault: Sendable {}

/// A `DebuggableError`, whose reason Vapor's `ErrorMiddleware` shows in every environment.
struct VaultSealedError: DebuggableError {
    var identifier: String { "VaultSealedError" }
    var reason: String { "the vault at vault.internal:8200 is sealed" }
}

/// A type whose provider fails with an error whose description carries a password.
struct UnreachableDatabase: Sendable {}

/// A provider's error as a driver might describe it: with its connection string.
struct ConnectionRefused: Error, CustomStringConvertible {
    var description: String { "connection to postgres://app:Tr0ub4dor&3@db.internal:5432/prod refused" }
}

/// The tests' request graph: the request's id, logger and user come from the scope's values.
struct RequestModule: Module {
    let ledger: ScopeLedger

    func configure(_ binder: Binder) {
        binder.bind(RequestIdentifier.self).suppliedByScope()
        binder.bind(Logger.self).suppliedByScope()
        binder.bind(User.self).suppliedByScope()
        binder.bind(RequestWork.self)
            .to { [ledger] r in
                let id = try await r.get(RequestIdentifier.self)
                return RequestWork(serial: ledger.nextSerial(), requestID: id, ledger: ledger)
            }
            .inScope(.scoped)
        binder.bind(UncommittableTransaction.self).to { _ in UncommittableTransaction() }.inScope(.scoped)
        binder.bind(SealedVault.self).to { _ in throw VaultSealedError() }
        binder.bind(UnreachableDatabase.self).to { _ in throw ConnectionRefused() }
    }
}

/// A singleton that records its construction and disposal.
final class Recorded<Tag>: AsyncDisposable {
    let events: EventLog

    init(events: EventLog) {
        self.events = events
        events.record("built \(Tag.self)")
    }

    func dispose() async throws {
        events.record("disposed \(Tag.self)")
    }
}

enum Pool {}
enum Cache {}

/// Two eager singletons, the cache built from the pool, so disposed before it.
struct SingletonModule: Module {
    let events: EventLog

    func configure(_ binder: Binder) {
        binder.bind(Recorded<Pool>.self).to { [events] _ in Recorded(events: events) }.asEagerSingleton()
        binder.bind(Recorded<Cache>.self)
            .to { [events] r in
                _ = try await r.get(Recorded<Pool>.self)
                return Recorded(events: events)
            }
            .asEagerSingleton()
    }
}

/// An eager singleton whose provider fails: start-up fails.
struct BrokenModule: Module {
    struct ConnectionRefused: Error {}

    func configure(_ binder: Binder) {
        binder.bind(Recorded<Self>.self).to { _ in throw ConnectionRefused() }.asEagerSingleton()
    }
}

/// Runs `body` with a new testing application that logs into `logs`, and shuts it down after,
/// whether `body` throws or not: its server (which `useInjector` would stop, but not every test
/// uses it), then the application.
func withTestApp<T>(logs: LogCapture = LogCapture(), _ body: (Application) async throws -> T) async throws -> T {
    let app = try await Application.make(.testing, logger: logs.logger())
    let result: T
    do {
        result = try await body(app)
    } catch {
        await app.server.shutdown()
        try? await app.asyncShutdown()
        throw error
    }
    await app.server.shutdown()
    try await app.asyncShutdown()
    return result
}

/// A count that tasks add to.
final class Counter: Sendable {
    private let count = Mutex(0)

    func increment() {
        count.withLock { $0 += 1 }
    }

    var value: Int { count.withLock { $0 } }
}
