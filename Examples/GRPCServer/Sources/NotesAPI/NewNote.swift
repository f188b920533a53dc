/// The request of `AddNote`: the text of the note to store.
///
/// ```swift
/// let note = try await notes.addNote(NewNote(text: "buy oat milk"))
/// ```
public struct NewNote: Codable, Sendable, Hashable {
    /// The most UTF-8 bytes a note may hold; the server refuses more with `invalidArgument`.
    public static let maximumBytes = 1_000

    /// What the note says: 1 to ``maximumBytes`` UTF-8 bytes.
    public var text: String

    /// Creates the request.
    ///
    /// - Parameter text: What the note says.
    public init(text: String) {
        self.text = text
    }
}
