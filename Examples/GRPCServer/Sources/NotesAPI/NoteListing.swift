/// The request of `ListNotes`: a page of notes in order of id, streamed one message per note.
///
/// ```swift
/// let notes = try await client.listNotes(NoteListing(afterID: 0, limit: 50))
/// ```
public struct NoteListing: Codable, Sendable, Hashable {
    /// The most notes one `ListNotes` streams; the server refuses more with `invalidArgument`.
    public static let maximumLimit = 1_000

    /// Only notes whose id is greater: `0` for the first page, the last id seen for the next.
    public var afterID: Int64
    /// How many notes at most: 1 to ``maximumLimit``.
    public var limit: Int

    /// Creates the request.
    ///
    /// - Parameters:
    ///   - afterID: Only notes whose id is greater.
    ///   - limit: How many notes at most.
    public init(afterID: Int64 = 0, limit: Int = 100) {
        self.afterID = afterID
        self.limit = limit
    }
}
