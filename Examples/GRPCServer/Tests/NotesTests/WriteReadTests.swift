import GRPCCore
import NotesAPI
import Testing

/// The unary RPCs over a real HTTP/2 socket, on the real database: a note written is read back,
/// by the scoped service and by its hand-wired twin alike; bad requests and unknown notes are
/// answered with their own codes.
@Suite("Write, then read", .timeLimit(.minutes(2)))
struct WriteReadTests {
    @Test("AddNote stores a note that GetNote, PlainNotes/GetNote and ListNotes answer, committed")
    func writeThenRead() async throws {
        try await TestServer.with { server in
            let added = try await server.notes.addNote(NewNote(text: "buy oat milk"))
            #expect(added.id > 0)
            #expect(added.text == "buy oat milk")
            #expect(try await server.committedNotes(text: "buy oat milk") == 1)

            #expect(try await server.notes.getNote(NoteQuery(id: added.id)) == added)
            #expect(try await server.notes.plainGetNote(NoteQuery(id: added.id)) == added)
            #expect(try await server.notes.listNotes(NoteListing()) == [added])
        }
    }

    @Test("An unknown note is notFound, as itself, through the transaction scope and the twin")
    func unknownNote() async throws {
        try await TestServer.with { server in
            let scoped = await #expect(throws: RPCError.self) {
                try await server.notes.getNote(NoteQuery(id: 4242))
            }
            #expect(scoped?.code == .notFound)
            #expect(scoped?.message == "No note 4242")
            let plain = await #expect(throws: RPCError.self) {
                try await server.notes.plainGetNote(NoteQuery(id: 4242))
            }
            #expect(plain?.code == .notFound)
            #expect(plain?.message == "No note 4242")
        }
    }

    @Test(
        "A bad request is invalidArgument, and stores nothing",
        arguments: ["", "   ", String(repeating: "x", count: NewNote.maximumBytes + 1)])
    func badNote(text: String) async throws {
        try await TestServer.with { server in
            let error = await #expect(throws: RPCError.self) {
                try await server.notes.addNote(NewNote(text: text))
            }
            #expect(error?.code == .invalidArgument)
            let listed: [Note] = try await server.notes.listNotes(NoteListing())
            #expect(listed.isEmpty)
        }
    }

    @Test("A bad listing is invalidArgument", arguments: [NoteListing(limit: 0), NoteListing(afterID: -1)])
    func badListing(listing: NoteListing) async throws {
        try await TestServer.with { server in
            let error = await #expect(throws: RPCError.self) {
                try await server.notes.listNotes(listing)
            }
            #expect(error?.code == .invalidArgument)
        }
    }
}
