/// A stored note, as every RPC of the service answers it: `AddNote` and `GetNote` with one,
/// `ListNotes` with one message per note.
///
/// ```swift
/// let note = try await notes.addNote(NewNote(text: "buy oat milk"))
/// print(note.id, note.text, note.requestID)   // 1 buy oat milk 5f0c…
/// ```
public struct Note: Codable, Sendable, Hashable {
    /// The note's id, given by the database, increasing.
    public var id: Int64
    /// What the note says.
    public var text: String
    /// The id of the RPC that wrote it: the caller's `x-request-id`, or the one the server made.
    public var requestID: String

    /// Creates a note, as the server answers it.
    ///
    /// - Parameters:
    ///   - id: The note's id.
    ///   - text: What it says.
    ///   - requestID: The id of the RPC that wrote it.
    public init(id: Int64, text: String, requestID: String) {
        self.id = id
        self.text = text
        self.requestID = requestID
    }
}
