import GRPCCore
import NotesAPI
import PostgresNIO
import PostgresTestSupport
import Synchronization
import TestSupport
import Testing

@testable import Notes

/// Each RPC's work runs in a transaction of its own, opened with `withScope(around:)`: committed
/// when the handler returns, rolled back when it throws, invisible to the others until then; its
/// scope is disposed once, told how the handler ended.
@Suite("A transaction per RPC", .timeLimit(.minutes(2)))
struct TransactionTests {
    struct ProbeFailure: Error {}

    @Test("A handler that throws after its insert leaves no row, and its scope is disposed once, failed")
    func failedRPCRollsBack() async throws {
        let log = ProbeLog()
        let probe = TransactionProbe(afterInsert: { note, _ in
            if note.text == "fail" { throw ProbeFailure() }
            if note.text == "refuse" { throw RPCError(code: .aborted, message: "Refused after the insert") }
        })
        try await TestServer.with(modules: [ProbeModule(probe: probe, log: log)]) { server in
            let failed = await #expect(throws: RPCError.self) {
                try await server.notes.addNote(NewNote(text: "fail"))
            }
            // Not an RPCError: answered as the opaque internalError.
            #expect(failed?.code == .internalError)
            #expect(failed?.message == "Internal error")
            #expect(log.disposals == [.disposed(store: 1, succeeded: false, transaction: 0)])

            // The handler's own RPCError reaches the client as itself, unwrapped from
            // postgres-nio's PostgresTransactionError.
            let refused = await #expect(throws: RPCError.self) {
                try await server.notes.addNote(NewNote(text: "refuse"))
            }
            #expect(refused?.code == .aborted)
            #expect(refused?.message == "Refused after the insert")
            #expect(log.disposals.last == .disposed(store: 2, succeeded: false, transaction: 0))

            let stored = try await server.notes.addNote(NewNote(text: "ok"))
            guard case .disposed(store: 3, succeeded: true, let transaction)? = log.disposals.last else {
                Issue.record("The third store was not disposed after success: \(log.events)")
                return
            }
            #expect(transaction > 0)
            #expect(log.disposals.count == 3)

            #expect(try await server.committedNotes(text: "fail") == 0)
            #expect(try await server.committedNotes(text: "refuse") == 0)
            #expect(try await server.committedNotes(text: "ok") == 1)
            #expect(try await server.notes.listNotes(NoteListing()) == [stored])
        }
    }

    @Test("RPCs in their transactions at once each see their own row and no other's; then all commit")
    func concurrentTransactionsAreIsolated() async throws {
        let inFlight = TestServer.defaultMaximumConnections
        let gate = Gate()
        // By each transaction: how many rows with its own text, and with any held RPC's text.
        let visible = Mutex<[String: [Int]]>([:])
        let probe = TransactionProbe(afterInsert: { note, connection in
            // Counted inside the transaction, before any of them may commit.
            let own = try await connection.countNotes(text: note.text)
            let held = try await connection.query(
                "SELECT count(*) FROM notes WHERE starts_with(text, \("held "))", logger: TestDatabase.logger
            ).collect().first?.decode(Int.self)
            visible.withLock { $0[note.text] = [own, held ?? -1] }
            await gate.pass()
        })
        try await TestServer.with(modules: [ProbeModule(probe: probe, log: ProbeLog())]) { server in
            // However the test ends, the held RPCs go on, so that the server can stop.
            defer { gate.open() }
            let notes = try await withThrowingTaskGroup(of: Note.self) { group in
                for index in 0..<inFlight {
                    group.addTask { try await server.notes.addNote(NewNote(text: "held \(index)")) }
                }
                // All of them inserted, in transactions open at the same moment.
                await gate.waitForArrivals(inFlight)
                #expect(gate.held == inFlight)
                for index in 0..<inFlight {
                    #expect(try await server.committedNotes(text: "held \(index)") == 0)
                }
                gate.open()
                return try await group.reduce(into: [Note]()) { $0.append($1) }
            }
            #expect(notes.count == inFlight)
            // Each saw its own row, and no other held RPC's.
            let expected = Dictionary(uniqueKeysWithValues: (0..<inFlight).map { ("held \($0)", [1, 1]) })
            #expect(visible.withLock { $0 } == expected)
            for index in 0..<inFlight {
                #expect(try await server.committedNotes(text: "held \(index)") == 1)
            }
        }
    }
}
