import NIOHTTP1

/// How a request scope ended when its handler returned a `5xx` response instead of throwing:
/// the ``Objection/ScopeOutcome/error`` that outcome-aware disposals see.
///
/// A handler that answers `503` has failed as surely as one that throws, so
/// ``ObjectionScopeMiddleware`` ends the scope with ``Objection/ScopeOutcome/failed(_:)`` and this
/// error, and a unit of work rolls back. The client still gets the handler's response, unchanged.
///
/// ```swift
/// binder.bind(UnitOfWork.self).to(UnitOfWork.init).inScope(.scoped).onDispose { work, outcome in
///     if let failed = outcome.error as? ServerErrorStatus {
///         logger.debug("rolling back after \(failed.status.code)")
///     }
///     if outcome.isSuccess { try await work.commit() } else { try await work.rollBack() }
/// }
/// ```
public struct ServerErrorStatus: Error, Sendable, CustomStringConvertible {
    /// The status the handler answered with, `500` to `599`.
    ///
    /// ```swift
    /// (outcome.error as? ServerErrorStatus)?.status == .serviceUnavailable
    /// ```
    public let status: HTTPResponseStatus

    /// Wraps a status; ``ObjectionScopeMiddleware`` makes these, a test may too.
    ///
    /// ```swift
    /// let outcome = ScopeOutcome.failed(ServerErrorStatus(status: .badGateway))
    /// ```
    ///
    /// - Parameter status: The response's status.
    public init(status: HTTPResponseStatus) {
        self.status = status
    }

    /// The status's code and reason: `503 Service Unavailable`.
    ///
    /// ```swift
    /// print(ServerErrorStatus(status: .serviceUnavailable))   // 503 Service Unavailable
    /// ```
    public var description: String { "\(status.code) \(status.reasonPhrase)" }
}
