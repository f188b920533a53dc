import Logging
import Objection

/// Ending an operation's scope, and logging what its disposals threw, as
/// ``Objection/OpenScope/endAfterResponse(_:log:)`` says.
enum ScopeEnding {
    /// Ends `scope` with the operation's `outcome`: after a success, a disposal's failure is
    /// logged and thrown (a commit that failed must not look committed); after a failure, it is
    /// logged, and the operation's failure stays the one reported.
    static func end(_ scope: OpenScope, with outcome: ScopeOutcome, log: OperationLog) async throws {
        try await scope.endAfterResponse(outcome) { report($0, to: log) }
    }

    /// Ends `scope` after a failure; a disposal's failure is logged, and the first error stays the
    /// one the client hears of.
    static func end(_ scope: OpenScope, afterFailure error: any Error, log: OperationLog) async {
        await scope.endAfterFailure(error) { report($0, to: log) }
    }

    /// Ends `scope` with `outcome` if its handle is released unended, its body never written;
    /// a disposal's failure then is logged.
    static func endWhenReleased(_ scope: OpenScope, with outcome: ScopeOutcome, log: OperationLog) {
        scope.endsWhenReleased(with: outcome) { report($0, to: log) }
    }

    private static func report(_ failure: ResponseDisposalFailure, to log: OperationLog) {
        log.error("\(failure.message)", metadata: FailureAnswer.metadata(of: failure.error))
    }
}
