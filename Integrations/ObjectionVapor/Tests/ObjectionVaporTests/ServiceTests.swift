import AsyncHTTPClient
import LoggingTestSupport
import Objection
import ObjectionServiceLifecycle
import ObjectionVapor
import ServiceLifecycle
import TestSupport
import Testing
import Vapor

/// Singletons marked `asService()` run in the application's lifecycle: before the eager
/// singletons that use them are built at boot, and until the injector has drained at shutdown.
@Suite("Services in the application's lifecycle", .timeLimit(.minutes(1)))
struct ServiceTests {
    /// A client that answers only while its `run()` runs, as a database client's pool does.
    final class FakeClient: Service, AsyncDisposable {
        let events: EventLog
        let running = Signal()
        init(events: EventLog) { self.events = events }

        func run() async throws {
            events.record("client running")
            running.fire()
            try? await gracefulShutdown()
            events.record("client stopped")
        }

        /// Whether the client still runs; waits until it has started.
        func query() async throws -> Bool {
            try await running.wait()
            return !events.all.contains("client stopped")
        }

        func dispose() async throws { events.record("disposed client") }
    }

    /// Queries the client while it is built, at boot.
    final class Repository: AsyncDisposable {
        let events: EventLog
        init(client: FakeClient, events: EventLog) async throws {
            _ = try await client.query()
            self.events = events
            events.record("built repository")
        }
        func dispose() async throws { events.record("disposed repository") }
    }

    struct ClientModule: Module {
        let events: EventLog

        func configure(_ binder: Binder) {
            binder.bind(FakeClient.self).to { [events] _ in FakeClient(events: events) }.asService()
            binder.bind(Repository.self)
                .to { [events] r in try await Repository(client: r.get(FakeClient.self), events: events) }
                .asEagerSingleton()
            binder.bind(RequestIdentifier.self).suppliedByScope()
            binder.bind(Logger.self).suppliedByScope()
            binder.bind(User.self).suppliedByScope()
        }
    }

    @Test("A service runs before the boot builds what uses it, and stops only after the drain")
    func serviceLifecycle() async throws {
        let events = EventLog()
        let logs = LogCapture()
        let injector = try await InjectorActor(modules: [ClientModule(events: events)], startup: .deferred)
        let entered = Signal()
        let gate = Signal()
        let app = try await Application.make(.testing, logger: logs.logger())
        app.useInjector(injector, drainTimeout: nil)
        app.grouped(ObjectionScopeMiddleware(injector)).get("slow") { req async throws -> String in
            let client = try await req.resolve(FakeClient.self)
            entered.fire()
            try await gate.wait()
            let stillRunning = try await client.query()
            events.record("handler queried the client while it \(stillRunning ? "ran" : "had stopped")")
            return "done"
        }
        let port = try await app.startLive()
        #expect(events.all == ["client running", "built repository"])
        let shuttingDown = logs.signal(whenLogged: "Shutting the injector down")
        try await withHTTPClient { client in
            let request = Task { try await client.get(port: port, "/slow") }
            try await entered.wait()
            // The client leaves: Vapor does not cancel the handler.
            request.cancel()
            _ = await request.result
            let shutdown = Task { try await app.asyncShutdown() }
            try await shuttingDown.wait()
            while injector.phase == .running { await Task.yield() }
            gate.fire()
            try await shutdown.value
        }
        #expect(
            events.all == [
                "client running", "built repository", "handler queried the client while it ran", "client stopped",
                "disposed repository", "disposed client",
            ])
    }
}
