/// The request of `GetNote` (and of its hand-wired twin): which note.
///
/// ```swift
/// let note = try await notes.getNote(NoteQuery(id: 42))   // `notFound` if there is none
/// ```
public struct NoteQuery: Codable, Sendable, Hashable {
    /// The note's id.
    public var id: Int64

    /// Creates the request.
    ///
    /// - Parameter id: The note's id.
    public init(id: Int64) {
        self.id = id
    }
}
