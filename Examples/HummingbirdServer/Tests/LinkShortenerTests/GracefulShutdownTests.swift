import LinkShortener
import Logging
import LoggingTestSupport
import Objection
import PostgresNIO
import PostgresTestSupport
import ServiceLifecycle
import TestSupport
import Testing

/// Graceful shutdown stops the HTTP server first, then the database client, then disposes the
/// singletons in reverse order.
@Suite("Graceful shutdown", .timeLimit(.minutes(2)))
struct GracefulShutdownTests {
    @Test("A request in its transaction at shutdown commits; then the client's pool closes; then the injector disposes")
    func serverThenClientThenInjector() async throws {
        let gate = Gate()
        let (signals, signalled) = AsyncStream.makeStream(of: Void.self)
        try await TestServer.with(
            modules: [ProbeModule.gatingInsertions(at: gate)],
            wrap: { application, events in ShutdownProbe(base: application, events: events, signalled: signalled) }
        ) { server in
            let client = try await server.injector.get(PostgresClient.self)
            let auditLog = try await server.injector.get(AuditLog.self)
            let url = "https://swift.org/shutdown"
            let held = Task {
                try await server.send(
                    .post, "/links", user: "frank", requestID: "held-1", body: try CreateLinkRequest(url: url).json())
            }
            // Inserted, in its transaction, not committed.
            await gate.waitForArrivals(1)
            #expect(try await server.committedLinks(urlPrefix: url) == 0)

            await server.group.triggerGracefulShutdown()
            var iterator = signals.makeAsyncIterator()
            await iterator.next()
            // The HTTP server has been told to stop, but a request is in flight: the client still
            // runs, and the injector is untouched.
            #expect(server.events.firstIndex(of: "Service finished", with: "PostgresClient") == nil)
            #expect(server.lifecycle.disposed.isEmpty)

            gate.open()
            let reply = try await held.value
            #expect(reply.status == 201)
            let link = try reply.decode(LinkResponse.self)
            #expect(link.requestID == "held-1")
            try await server.running.value

            // Committed before the pool closed.
            #expect(try await server.committedLinks(urlPrefix: url) == 1)
            // In order: the server stopped, the client's run() returned, the injector shut down.
            let events = server.events
            let serverStopped = try #require(events.firstIndex(of: ShutdownProbe.stopped))
            let clientEnded = try #require(events.firstIndex(of: "Service finished", with: "PostgresClient"))
            let injectorShutDown = try #require(events.firstIndex(of: "Shutting the injector down"))
            let singletonDisposals = ["PostgresClient", "Metrics", "AuditLog"].flatMap {
                events.indices(of: "Disposed instance", with: $0)
            }
            #expect(serverStopped < clientEnded)
            #expect(clientEnded < injectorShutDown)
            #expect(singletonDisposals.count == 3)
            #expect(singletonDisposals.allSatisfy { $0 > injectorShutDown })
            // Its pool is closed.
            let error = await #expect(throws: (any Error).self) {
                try await client.query("SELECT 1", logger: TestDatabase.logger)
            }
            #expect(error.map { String(reflecting: $0).contains("poolShutdown") } == true)

            let built = server.lifecycle.built
            #expect(Set(built) == ["metrics", "postgres-client", "audit-log"])
            #expect(built.count == 3)
            #expect(server.lifecycle.disposed == built.reversed())
            // The held request's scope ended, and flushed its audit, before the log was disposed.
            #expect(
                auditLog.recentRecords.filter { $0.requestID == "held-1" }.map(\.events) == [["created \(link.code)"]])
        }
    }

    @Test("After shutdown the injector refuses new resolutions")
    func injectorRefusesAfterShutdown() async throws {
        try await TestServer.with { server in
            let auditLog = try await server.injector.get(AuditLog.self)
            _ = try await server.createLink("https://swift.org/after", user: "gina")
            try await server.stop()
            #expect(auditLog.recentRecords.map(\.user) == ["gina"])
            #expect(auditLog.append(AuditRecord(requestID: "late", user: "late", events: [])) == false)
            let error = await #expect(throws: InjectionError.self) { try await server.injector.get(Metrics.self) }
            #expect(error?.code == .shutDown)
        }
    }
}

/// Runs a service, reports when the group tells it to shut down gracefully, and logs when it has
/// stopped.
struct ShutdownProbe: Service {
    static let stopped = "Server stopped"

    let base: any Service
    let events: LogCapture
    let signalled: AsyncStream<Void>.Continuation

    func run() async throws {
        try await withGracefulShutdownHandler {
            try await base.run()
        } onGracefulShutdown: {
            signalled.yield()
        }
        events.append(.init(message: Self.stopped))
    }
}
