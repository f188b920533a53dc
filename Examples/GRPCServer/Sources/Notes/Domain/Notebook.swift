import GRPCCore
import NotesAPI
import ObjectionGRPC

/// What the RPCs do with notes, on the store of their transaction, for the RPC's request id.
///
/// Transient and autowired: each `get` in a transaction scope builds one from that scope's
/// ``NoteStore`` and the RPC's `RPCRequestID`; the hand-wired twin builds one by hand.
///
/// ```swift
/// let note = try await RPCScope.withTransaction { scope in
///     try await scope.get(Notebook.self).add("buy oat milk")
/// }
/// ```
struct Notebook: Sendable {
    let store: any NoteStore
    let requestID: RPCRequestID

    init(store: any NoteStore, requestID: RPCRequestID) {
        self.store = store
        self.requestID = requestID
    }

    /// Stores a note with checked text.
    func add(_ text: String) async throws -> Note {
        try await store.insert(text: text, requestID: requestID.value)
    }

    /// The note `id`.
    ///
    /// - Throws: `RPCError(code: .notFound)` when there is none.
    func note(_ id: Int64) async throws -> Note {
        guard let note = try await store.find(id: id) else {
            throw RPCError(code: .notFound, message: "No note \(id)")
        }
        return note
    }

    /// Calls `each` with every note `listing` selects, as the store reads them.
    func list(_ listing: NoteListing, _ each: (Note) async throws -> Void) async throws {
        try await store.list(afterID: listing.afterID, limit: listing.limit, each)
    }
}
