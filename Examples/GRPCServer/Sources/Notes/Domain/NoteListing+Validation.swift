import GRPCCore
import NotesAPI

extension NoteListing {
    /// The listing, checked: a limit of 1 to ``NoteListing/maximumLimit``, an id of 0 or more.
    ///
    /// - Throws: `RPCError(code: .invalidArgument)`.
    func validated() throws -> NoteListing {
        guard (1...Self.maximumLimit).contains(limit), afterID >= 0 else {
            throw RPCError(
                code: .invalidArgument, message: "A listing has a limit of 1 to \(Self.maximumLimit) and afterID >= 0")
        }
        return self
    }
}
