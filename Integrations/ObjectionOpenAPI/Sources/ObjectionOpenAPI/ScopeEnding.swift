import Logging
import Objection

/// Ending an operation's scope, and logging what its disposals threw.
enum ScopeEnding {
    /// Ends `scope` with the operation's `outcome`: after a success, a disposal's failure is
    /// logged and thrown (a commit that failed must not look committed); after a failure, it is
    /// logged, and the operation's failure stays the one reported.
    static func end(_ scope: OpenScope, with outcome: ScopeOutcome, log: OperationLog) async throws {
        guard outcome.isSuccess else { return await end(scope, after: outcome, log: log) }
        do {
            try await scope.end(.succeeded)
        } catch {
            log.error("Disposing an operation's scope failed", metadata: FailureAnswer.metadata(of: error))
            throw error
        }
    }

    /// Ends `scope` after a failure; a disposal's failure is logged, and the first error stays the
    /// one the client hears of.
    static func end(_ scope: OpenScope, after outcome: ScopeOutcome, log: OperationLog) async {
        do {
            try await scope.end(outcome)
        } catch {
            log.error(
                "Disposing an operation's scope failed after the operation failed",
                metadata: FailureAnswer.metadata(of: error)
            )
        }
    }
}
