import NotesAPI
import ServiceLifecycle
import TestSupport
import Testing

@testable import Notes

/// Graceful shutdown stops the gRPC server first and lets the RPCs in flight finish — their
/// transactions commit on connections still open — then ends the database client, then disposes
/// the singletons in reverse order of construction.
@Suite("Graceful shutdown", .timeLimit(.minutes(2)))
struct GracefulShutdownTests {
    @Test("An RPC held in its transaction at shutdown finishes and commits; then the singletons are disposed")
    func rpcInFlightFinishesFirst() async throws {
        let gate = Gate()
        let (signals, signalled) = AsyncStream.makeStream(of: Void.self)
        let probe = TransactionProbe(afterInsert: { note, _ in
            if note.text == "held" { await gate.pass() }
        })
        try await TestServer.with(
            modules: [ProbeModule(probe: probe, log: ProbeLog())],
            wrap: { ShutdownProbe(base: $0, signalled: signalled) }
        ) { server in
            // However the test ends, the held RPC goes on, so that the server can stop.
            defer { gate.open() }
            let held = Task { try await server.notes.addNote(NewNote(text: "held")) }
            // Inserted, in its transaction, not committed.
            await gate.waitForArrivals(1)
            #expect(try await server.committedNotes(text: "held") == 0)

            await server.group.triggerGracefulShutdown()
            var iterator = signals.makeAsyncIterator()
            await iterator.next()
            // The server has been told to stop, with an RPC in flight: nothing is disposed.
            #expect(server.lifecycle.disposed.isEmpty)

            gate.open()
            let note = try await held.value
            #expect(note.text == "held")
            try await server.running.value

            // Committed before the pool closed; the RPC's store disposed before the singletons,
            // which went in reverse order of construction.
            #expect(try await server.committedNotes(text: "held") == 1)
            #expect(
                server.lifecycle.events == [
                    .built(LifecycleLog.postgresClient), .built(LifecycleLog.notesDatabase),
                    .disposed("note-store 1"),
                    .disposed(LifecycleLog.notesDatabase), .disposed(LifecycleLog.postgresClient),
                ])
        }
    }
}

/// Runs a service, and reports when the group tells it to shut down gracefully.
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
