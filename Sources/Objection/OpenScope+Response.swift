/// Ending a request's scope once its response is done: the rule every server integration follows.
extension OpenScope {
    /// Ends the scope after its response was answered, telling the disposals `outcome`:
    /// ``ScopeOutcome/succeeded``, or the failure of a `5xx` answer
    /// (``ScopeOutcome/afterResponse(code:reasonPhrase:)``). After a success, a disposal that fails
    /// (a commit) is handed to `log` and thrown: the server cuts the response short (a reset
    /// stream, a `500` if nothing was sent yet) rather than finish it as if nothing had failed.
    /// After a failed outcome it is as ``endAfterFailure(_:log:)``: logged, not thrown. Does
    /// nothing once the scope has ended.
    ///
    /// ```swift
    /// try await open.endAfterResponse(.afterResponse(code: 200, reasonPhrase: "OK")) { failure in
    ///     logger.error("\(failure.message)", metadata: ["error.type": "\(failure.loggable.typeName)"])
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - outcome: How the response ended; ``ScopeOutcome/succeeded`` unless you say.
    ///   - log: Told of a disposal that failed.
    /// - Throws: After a success, the disposal's failure (``InjectionError/Code/disposalFailed``).
    public nonisolated(nonsending) func endAfterResponse(
        _ outcome: ScopeOutcome = .succeeded,
        log: (ResponseDisposalFailure) -> Void
    ) async throws {
        if let error = outcome.error {
            await endAfterFailure(error, log: log)
            return
        }
        do {
            try await end(.succeeded)
        } catch {
            log(ResponseDisposalFailure(error: error, responseFailed: false))
            throw error
        }
    }

    /// Ends the scope after its response failed with `error`, telling the disposals
    /// ``ScopeOutcome/failed(_:)``. A disposal that fails too is handed to `log`; `error` stays the
    /// one the client hears of. Does nothing once the scope has ended.
    ///
    /// ```swift
    /// await open.endAfterFailure(error) { logger.error("\($0.message)") }
    /// ```
    ///
    /// - Parameters:
    ///   - error: Why the response failed: the handler's error, a write's, a `5xx` status.
    ///   - log: Told of a disposal that failed.
    public nonisolated(nonsending) func endAfterFailure(
        _ error: any Error,
        log: (ResponseDisposalFailure) -> Void
    ) async {
        do {
            try await end(.failed(error))
        } catch {
            log(ResponseDisposalFailure(error: error, responseFailed: true))
        }
    }
}

/// A disposal of a request's scope that failed as the scope ended after its response (see
/// ``OpenScope/endAfterResponse(_:log:)`` and ``OpenScope/endsWhenReleased(with:log:)``): what a
/// server logs of it.
///
/// ```swift
/// logger.error("\(failure.message)", metadata: ["error": "\(failure.loggable)"])
/// ```
public struct ResponseDisposalFailure: Sendable {
    /// The disposal's failure, an ``InjectionError/Code/disposalFailed`` error.
    ///
    /// ```swift
    /// (failure.error as? InjectionError)?.code == .disposalFailed   // true
    /// ```
    public let error: any Error
    /// Whether the response had failed already (the disposal's failure is then not the one the
    /// client hears of), or succeeded (it is cut short, unless ``afterRelease``).
    ///
    /// ```swift
    /// if !failure.responseFailed && !failure.afterRelease { metrics.increment("responses.cut-short") }
    /// ```
    public let responseFailed: Bool

    /// Whether the scope ended when its handle was released, its response's body unwritten
    /// (``OpenScope/endsWhenReleased(with:log:)``): a response that succeeded had nothing left
    /// to send (a `HEAD`'s, a `204`), and nothing is cut short.
    ///
    /// ```swift
    /// if failure.afterRelease { logger.error("A commit failed after a bodiless answer") }
    /// ```
    public let afterRelease: Bool

    init(error: any Error, responseFailed: Bool, afterRelease: Bool = false) {
        self.error = error
        self.responseFailed = responseFailed
        self.afterRelease = afterRelease
    }

    /// What a log may say of the error (``LoggableError``): never a value it carries.
    ///
    /// ```swift
    /// metadata["error.type"] = "\(failure.loggable.typeName)"
    /// ```
    public var loggable: LoggableError { LoggableError(error) }

    /// The log message: the same in every server integration.
    ///
    /// ```swift
    /// logger.error("\(failure.message)")
    /// // A disposal of the request scope failed after its response; the response is cut short
    /// ```
    public var message: String {
        if responseFailed { return "A disposal of the request scope failed after its response failed" }
        return afterRelease
            ? "A disposal of the request scope failed after its response, which had no body to send"
            : "A disposal of the request scope failed after its response; the response is cut short"
    }
}
