import Ledger
import LoggingTestSupport
import NIOHTTP1
import Objection
import PostgresNIO
import PostgresTestSupport
import TestSupport
import Testing
import Vapor

/// `app.asyncShutdown()` stops the HTTP server first, lets the requests in flight finish and
/// commit, then disposes the singletons in reverse order: the pool, closed, last.
@Suite("Graceful shutdown", .timeLimit(.minutes(2)))
struct GracefulShutdownTests {
    @Test("A request in its transaction at shutdown commits; then the singletons are disposed, the pool last")
    func serverThenSingletons() async throws {
        let gate = Gate()
        try await TestServer.with(modules: [ProbeModule.gatingOpenings(at: gate)]) { server in
            let pool = try await server.injector.get(DatabaseClient.self).client
            let journal = try await server.injector.get(Journal.self)
            let held = Task {
                try await server.send(
                    .POST, "/accounts", teller: "frank", requestID: "held-1",
                    json: try json(OpenAccountRequest(owner: "late", balance: 5)))
            }
            // Inserted, in its transaction, not committed.
            await gate.waitForArrivals(1)
            #expect(try await server.committedAccounts(owner: "late") == 0)

            let shutdown = Task { try await server.app.asyncShutdown() }
            try await server.logs.signal(whenLogged: "Requesting HTTP server shutdown").wait()
            // The server has been told to stop, but a request is in flight: nothing is disposed,
            // and the pool still answers.
            #expect(server.lifecycle.disposed.isEmpty)
            let one = try await pool.query("SELECT 1", logger: TestDatabase.logger).collect()
            #expect(try one.first?.decode(Int.self) == 1)

            gate.open()
            let reply = try await held.value
            #expect(reply.status == .created)
            #expect(try reply.decode(AccountResponse.self).requestID == "held-1")
            try await shutdown.value

            // Committed before the pool closed.
            #expect(try await server.committedAccounts(owner: "late") == 1)
            // In order: the server stopped, then the injector shut down and disposed.
            let serverStopped = try #require(server.logs.firstIndex(of: "HTTP server shutting down"))
            let injectorShutDown = try #require(server.logs.firstIndex(of: "Shutting the injector down"))
            #expect(serverStopped < injectorShutDown)
            let built = server.lifecycle.built
            #expect(Set(built) == [DatabaseClient.lifecycleName, Journal.lifecycleName])
            #expect(built.count == 2)
            #expect(server.lifecycle.disposed == built.reversed())
            // The pool is closed.
            let error = await #expect(throws: (any Error).self) {
                try await pool.query("SELECT 1", logger: TestDatabase.logger)
            }
            #expect(error.map { String(reflecting: $0).contains("poolShutdown") } == true)
            // The held request's journal was written before the journal was disposed.
            #expect(journal.recentEntries.filter { $0.requestID == "held-1" }.map(\.succeeded) == [true])
            #expect(
                journal.append(JournalEntry(requestID: "late", teller: "late", events: [], succeeded: true)) == false)
            let afterwards = await #expect(throws: InjectionError.self) { try await server.injector.get(Journal.self) }
            #expect(afterwards?.code == .shutDown)
        }
    }
}
