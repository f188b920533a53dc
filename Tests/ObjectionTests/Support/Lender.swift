@testable import Objection

/// Lends a connection only inside a closure, as a database client lends a transaction: it commits
/// when the closure returns, rolls back when it throws, and wraps what it throws in an error of
/// its own. Records each step in ``log``.
final class Lender: Sendable {
    struct Connection: Sendable, Equatable {
        let id: Int
    }

    /// What the lender throws when the closure it ran threw.
    struct Wrapped: Error {
        let underlying: any Error
    }

    /// What the lender throws when it cannot commit.
    struct CommitFailed: Error {}

    let log = Log()
    let commitFails: Bool

    init(commitFails: Bool = false) {
        self.commitFails = commitFails
    }

    nonisolated(nonsending) func withTransaction<R>(_ body: (Connection) async throws -> R) async throws -> R {
        log.append("begin")
        let result: R
        do {
            result = try await body(Connection(id: 7))
        } catch {
            log.append("rollback")
            throw Wrapped(underlying: error)
        }
        guard !commitFails else {
            log.append("commit failed")
            throw CommitFailed()
        }
        log.append("commit")
        return result
    }
}
