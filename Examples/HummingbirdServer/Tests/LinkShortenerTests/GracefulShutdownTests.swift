import LinkShortener
import Objection
import ServiceLifecycle
import Testing

/// Graceful shutdown stops the HTTP server first, then disposes the singletons in reverse order.
@Suite("Graceful shutdown", .timeLimit(.minutes(2)))
struct GracefulShutdownTests {
    @Test("The server finishes its in-flight request, then the injector disposes singletons in reverse order")
    func serverFirstThenInjectorInReverseOrder() async throws {
        let gate = Gate()
        let (signals, signalled) = AsyncStream.makeStream(of: Void.self)
        let server = try await TestServer.start(modules: [GatedStoreModule(gate: gate)]) { application in
            ShutdownProbe(base: application, signalled: signalled)
        }
        let auditLog = try await server.injector.get(AuditLog.self)
        let link = try await server.createLink("https://swift.org/shutdown")
        let held = Task { try await server.send(.get, "/links/\(link.code)", user: "frank", requestID: "held-1") }
        await gate.waitForArrivals(1)

        await server.group.triggerGracefulShutdown()
        var iterator = signals.makeAsyncIterator()
        await iterator.next()
        // The HTTP server has been told to stop, but a request is in flight: the injector is untouched.
        #expect(server.lifecycle.disposed.isEmpty)

        await gate.open()
        let reply = try await held.value
        #expect(reply.status == 200)
        #expect(try reply.decode(LinkResponse.self).requestID == "held-1")
        try await server.running.value

        let built = server.lifecycle.built
        #expect(Set(built) == ["metrics", "link-store", "audit-log"])
        #expect(built.count == 3)
        #expect(server.lifecycle.disposed == built.reversed())
        // Metrics is eager, the others are built in dependency order at start-up.
        #expect(server.lifecycle.disposed == ["audit-log", "link-store", "metrics"])
        // The held request's scope ended, and flushed its audit, before the log was disposed.
        #expect(auditLog.recentRecords.filter { $0.requestID == "held-1" }.map(\.events) == [["resolved \(link.code)"]])
    }

    @Test("After shutdown the injector refuses new resolutions")
    func injectorRefusesAfterShutdown() async throws {
        let server = try await TestServer.start()
        let auditLog = try await server.injector.get(AuditLog.self)
        _ = try await server.createLink("https://swift.org/after", user: "gina")
        try await server.stop()
        #expect(auditLog.recentRecords.map(\.user) == ["gina"])
        #expect(auditLog.append(AuditRecord(requestID: "late", user: "late", events: [])) == false)
        let error = await #expect(throws: InjectionError.self) { try await server.injector.get(Metrics.self) }
        #expect(error?.code == .shutDown)
    }
}

/// Runs a service and reports when the group tells it to shut down gracefully.
struct ShutdownProbe: Service {
    let base: any Service
    let signalled: AsyncStream<Void>.Continuation

    func run() async throws {
        try await withGracefulShutdownHandler {
            try await base.run()
        } onGracefulShutdown: {
            signalled.yield()
        }
    }
}
