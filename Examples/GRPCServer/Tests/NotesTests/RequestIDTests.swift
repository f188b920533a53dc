import GRPCCore
import NotesAPI
import Testing

/// Every answer carries the RPC's id in its `x-request-id` metadata: the caller's, if usable,
/// else a new one; the scoped service and the twin alike. `AddNote` stores it with the note: the
/// value the interceptor bound in the RPC's scope reached the transaction scope's store.
@Suite("Request ids", .timeLimit(.minutes(2)))
struct RequestIDTests {
    enum Call: String, CaseIterable, Sendable {
        case addNote, getNote, listNotes, plainGetNote
    }

    /// A usable id, one that is not (a space), and none at all.
    static let sentIDs: [String?] = ["client-id:1", "not usable", nil]

    @Test("The answer's x-request-id echoes a usable id, or is a new one", arguments: Call.allCases)
    func echoed(call: Call) async throws {
        try await TestServer.with { server in
            let seeded = try await server.notes.addNote(NewNote(text: "seed"))
            for sent in Self.sentIDs {
                let metadata: Metadata = sent.map { ["x-request-id": .string($0)] } ?? [:]
                let (answered, note) = try await Self.make(call, seeded: seeded, metadata: metadata, on: server)
                if let sent, sent == "client-id:1" {
                    #expect(answered == sent)
                } else {
                    #expect(
                        answered.map(Self.isNewID) == true, "sent \(sent ?? "none"), answered \(answered ?? "none")")
                }
                if call == .addNote {
                    #expect(note.requestID == answered)
                    #expect(try await server.notes.getNote(NoteQuery(id: note.id)).requestID == answered)
                }
            }
        }
    }

    /// Makes `call`, and answers the response's `x-request-id` and a note it carried.
    static func make(
        _ call: Call, seeded: Note, metadata: Metadata, on server: TestServer
    ) async throws -> (String?, Note) {
        let query = NoteQuery(id: seeded.id)
        switch call {
        case .addNote:
            return try await server.notes.addNote(NewNote(text: "echo"), metadata: metadata) {
                (requestID(in: $0.metadata), try $0.message)
            }
        case .getNote:
            return try await server.notes.getNote(query, metadata: metadata) {
                (requestID(in: $0.metadata), try $0.message)
            }
        case .plainGetNote:
            return try await server.notes.plainGetNote(query, metadata: metadata) {
                (requestID(in: $0.metadata), try $0.message)
            }
        case .listNotes:
            return try await server.notes.listNotes(NoteListing(limit: 1), metadata: metadata) { response in
                var notes: [Note] = []
                for try await note in response.messages { notes.append(note) }
                return (requestID(in: response.metadata), notes.first ?? seeded)
            }
        }
    }

    @Sendable static func requestID(in metadata: Metadata) -> String? {
        metadata[stringValues: "x-request-id"].first { _ in true }
    }

    /// An id the server made: 32 hexadecimal digits.
    static func isNewID(_ id: String) -> Bool {
        id.count == 32 && id.allSatisfy(\.isHexDigit)
    }
}
