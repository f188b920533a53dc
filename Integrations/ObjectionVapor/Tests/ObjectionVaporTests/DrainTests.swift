import AsyncHTTPClient
import LoggingTestSupport
import Objection
import ObjectionVapor
import ServerFixtures
import TestSupport
import Testing
import Vapor

/// `app.asyncShutdown()` over real sockets when the server's own shutdown leaves a handler
/// running: the injector's drain keeps its singletons until it returns, up to the drain deadline.
@Suite("Drain on shutdown", .timeLimit(.minutes(2)))
struct DrainTests {
    /// How the server comes to stop while the handler still runs.
    enum Leaver: String, CaseIterable, Sendable {
        /// The client disconnects mid-request: Vapor does not cancel the handler, and its server
        /// stops at once, with no connection left.
        case clientLeaves
        /// The handler outlasts the server's `shutdownTimeout`, after which it stops waiting.
        case slowerThanServerTimeout
    }

    @Test(
        "A handler still running when the server has stopped finishes with its singletons",
        arguments: Leaver.allCases
    )
    func handlerOutlivesServer(leaver: Leaver) async throws {
        let logs = LogCapture()
        let events = EventLog()
        let injector = try await InjectorActor(modules: [
            SingletonModule(events: events), RequestModule(ledger: ScopeLedger()),
        ])
        let entered = Signal()
        let gate = Signal()
        let app = try await Application.make(.testing, logger: logs.logger())
        // The handler waits on a gate the test opens only once the injector drains, so it outlasts
        // any server timeout; half a second lets the listening socket close first (Vapor's debug
        // build asserts that it has when its timeout passes).
        if leaver == .slowerThanServerTimeout { app.http.server.configuration.shutdownTimeout = .milliseconds(500) }
        app.useInjector(injector, drainTimeout: nil)
        app.grouped(ObjectionScopeMiddleware(injector)).get("slow") { req async throws -> String in
            _ = try await req.resolve(RequestWork.self)
            entered.fire()
            try await gate.wait()
            // After the server has stopped and the injector began shutting down.
            _ = try await req.resolve(Recorded<Cache>.self)
            events.record("handler used Cache")
            return "done"
        }
        let port = try await app.startLive()
        let shuttingDown = logs.signal(whenLogged: "Shutting the injector down")
        try await withHTTPClient { client in
            let request = Task { try await client.get(port: port, "/slow") }
            try await entered.wait()
            if leaver == .clientLeaves {
                request.cancel()
                _ = await request.result
            }
            let shutdown = Task { try await app.asyncShutdown() }
            try await shuttingDown.wait()
            // The drain has begun once a new request scope is refused.
            while await refusesScopes(injector) == false { await Task.yield() }
            #expect(events.all == ["built Pool", "built Cache"], "nothing disposed under the handler")
            gate.fire()
            try await shutdown.value
            request.cancel()
            _ = await request.result
        }
        #expect(
            events.all == ["built Pool", "built Cache", "handler used Cache", "disposed Cache", "disposed Pool"]
        )
    }

    @Test("A request that completes during the server's graceful shutdown ends its scope succeeded")
    func completesDuringShutdown() async throws {
        let logs = LogCapture()
        let ledger = ScopeLedger()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ledger)])
        let entered = Signal()
        let gate = Signal()
        let app = try await Application.make(.testing, logger: logs.logger())
        app.useInjector(injector, drainTimeout: nil)
        app.grouped(ObjectionScopeMiddleware(injector)).get("slow") { req async throws -> String in
            _ = try await req.resolve(RequestWork.self)
            entered.fire()
            try await gate.wait()
            return "done"
        }
        let port = try await app.startLive()
        let stopping = logs.signal(whenLogged: "Requesting HTTP server shutdown")
        let reply = try await withHTTPClient { client in
            let request = Task { try await client.get(port: port, "/slow") }
            try await entered.wait()
            // The server's graceful shutdown waits for the request in flight.
            let shutdown = Task { try await app.asyncShutdown() }
            try await stopping.wait()
            gate.fire()
            let reply = try await request.value
            try await shutdown.value
            return reply
        }
        #expect(reply.0 == .ok)
        #expect(reply.1 == "done")
        #expect(ledger.disposed.count == 1)
        #expect(ledger.disposed.first.map { $0.error == nil } == true, "the scope ended succeeded")
    }

    @Test("A provider that hangs during shutdown is cut at the drain deadline and named in the log")
    func hungProviderDuringShutdown() async throws {
        let logs = LogCapture()
        let entered = Signal()
        let injector = try await InjectorActor(modules: [
            RequestModule(ledger: ScopeLedger()),
            StuckModule(entered: entered),
        ])
        let app = try await Application.make(.testing, logger: logs.logger())
        app.http.server.configuration.shutdownTimeout = .milliseconds(500)
        app.useInjector(injector, drainTimeout: .milliseconds(50))
        app.grouped(ObjectionScopeMiddleware(injector)).get("stuck") { req async throws -> String in
            _ = try await req.resolve(Stuck.self)
            return "never"
        }
        let port = try await app.startLive()
        let reported = logs.signal(whenLogged: "Shutting the injector down reported a problem")
        try await withHTTPClient { client in
            let request = Task { try await client.get(port: port, "/stuck") }
            try await entered.wait()
            try await app.asyncShutdown()
            try await reported.wait()
            request.cancel()
            _ = await request.result
        }
        let report = logs.all.first { $0.message == "Shutting the injector down reported a problem" }
        let text = report?.metadata["error"].map { "\($0)" } ?? ""
        #expect(text.contains("1 request scope was still open"), "\(text)")
        #expect(text.contains("'Stuck' was still being built"), "\(text)")
    }

    /// A singleton whose provider never returns.
    struct Stuck: Sendable {}

    /// Binds ``Stuck``, firing `entered` when its provider starts.
    struct StuckModule: Module {
        let entered: Signal

        func configure(_ binder: Binder) {
            binder.bind(Stuck.self).to { [entered] _ in
                entered.fire()
                try await Signal().wait()
                return Stuck()
            }.asSingleton()
        }
    }

    /// Whether the injector refuses a new request scope because it is shutting down.
    private func refusesScopes(_ injector: InjectorActor) async -> Bool {
        do {
            try await injector.withScope(values: { _ in }) { _ in }
            return false
        } catch {
            return (error as? InjectionError)?.code == .shutDown
        }
    }
}
