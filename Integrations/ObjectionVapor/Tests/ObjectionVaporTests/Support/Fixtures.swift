import Logging
import LoggingTestSupport
import Objection
import ObjectionVapor
import ServerFixtures
import Synchronization
import TestSupport
import Vapor

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

/// The sealed vault's error here: a `DebuggableError`, whose reason Vapor's `ErrorMiddleware`
/// shows in every environment.
struct DebuggableVaultError: DebuggableError {
    var identifier: String { "DebuggableVaultError" }
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
        RequestWorkModule(ledger: ledger).configure(binder)
        binder.bind(Logger.self).suppliedByScope()
        binder.bind(User.self).suppliedByScope()
        binder.bind(SealedVault.self).to { _ in throw DebuggableVaultError() }
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
