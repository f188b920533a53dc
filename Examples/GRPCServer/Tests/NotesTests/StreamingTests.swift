import GRPCCore
import NotesAPI
import Testing

/// `ListNotes` writes one message per note from inside its transaction scope: the scope's store,
/// on the transaction's connection, serves every message, the last included, and is disposed
/// after it has been written, inside the same transaction.
@Suite("A streamed response's lifetimes", .timeLimit(.minutes(2)))
struct StreamingTests {
    static let count = 25

    @Test("Every row is streamed; one store, alive in one transaction, serves each message, then is disposed once")
    func storeServesEveryMessage() async throws {
        let log = ProbeLog()
        try await TestServer.with(modules: [ProbeModule(log: log)], interceptors: [WriteRecorder(log: log)]) {
            server in
            var added: [Note] = []
            for index in 1...Self.count {
                added.append(try await server.notes.addNote(NewNote(text: "row \(index)")))
            }
            // Each AddNote had a store of its own, disposed after success.
            #expect(log.stores == Self.count)
            let before = log.events.count

            let streamed = try await server.notes.listNotes(NoteListing(limit: NoteListing.maximumLimit))
            #expect(streamed == added)

            let events = Array(log.events.dropFirst(before))
            let store = Self.count + 1
            #expect(log.stores == store)
            guard case .disposed(store: store, succeeded: true, transaction: let transaction)? = events.last else {
                Issue.record("The listing's store was not disposed last: \(events)")
                return
            }
            #expect(transaction > 0)
            // One message per row, in order, each written while the same store, alive, served it
            // in the transaction it was disposed in: the store outlived the last message.
            #expect(
                Array(events.dropLast())
                    == added.flatMap {
                        [
                            .wrote(note: $0.id),
                            .served(store: store, note: $0.id, alive: true, transaction: transaction),
                        ]
                    })
            #expect(log.disposals.count == store)
        }
    }

    @Test("A page after an id streams the notes after it, up to the limit")
    func paging() async throws {
        try await TestServer.with { server in
            var added: [Note] = []
            for index in 1...5 { added.append(try await server.notes.addNote(NewNote(text: "page \(index)"))) }
            let page = try await server.notes.listNotes(NoteListing(afterID: added[1].id, limit: 2))
            #expect(page == Array(added[2...3]))
        }
    }
}
