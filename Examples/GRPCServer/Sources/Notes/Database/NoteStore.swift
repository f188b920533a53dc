import NotesAPI

/// Where notes are kept: ``PostgresNoteStore`` on a transaction's connection; the tests wrap it to
/// act inside the transaction.
protocol NoteStore: Sendable {
    /// Stores a note written by the RPC `requestID`, and answers it with its new id.
    func insert(text: String, requestID: String) async throws -> Note

    /// The note `id`, or `nil`.
    func find(id: Int64) async throws -> Note?

    /// Calls `each` with every note whose id is above `afterID`, in order of id, at most `limit`
    /// of them, as the database returns them: none is held back to be sent later.
    func list(afterID: Int64, limit: Int, _ each: (Note) async throws -> Void) async throws
}
