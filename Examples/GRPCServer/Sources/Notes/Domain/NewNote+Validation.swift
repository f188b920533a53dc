import GRPCCore
import NotesAPI

extension NewNote {
    /// The text, checked: 1 to ``NewNote/maximumBytes`` UTF-8 bytes, not only white space.
    ///
    /// - Throws: `RPCError(code: .invalidArgument)`.
    func validatedText() throws -> String {
        guard text.contains(where: { !$0.isWhitespace }), text.utf8.count <= Self.maximumBytes else {
            throw RPCError(code: .invalidArgument, message: "A note has 1 to \(Self.maximumBytes) bytes of text")
        }
        return text
    }
}
