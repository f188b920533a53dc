public import HTTPTypes

/// How a request scope ended when its operation returned a `5xx` response instead of throwing:
/// the ``Objection/ScopeOutcome/error`` that outcome-aware disposals see.
///
/// An operation that answers `503` (a response its OpenAPI document declares) has failed as surely
/// as one that throws, so ``ObjectionOpenAPIMiddleware`` ends the scope with
/// ``Objection/ScopeOutcome/failed(_:)`` and this error, and a unit of work rolls back. The client
/// still gets the operation's response, unchanged.
///
/// ```swift
/// binder.bind(UnitOfWork.self).to(UnitOfWork.init).inScope(.scoped).onDispose { work, outcome in
///     if outcome.isSuccess { try await work.commit() } else { try await work.rollBack() }
/// }
/// // outcome.error as? OpenAPIServerErrorStatus → .serviceUnavailable for a 503
/// ```
public struct OpenAPIServerErrorStatus: Error, Sendable, CustomStringConvertible {
    /// The status the operation answered with, `500` to `599`.
    ///
    /// ```swift
    /// (outcome.error as? OpenAPIServerErrorStatus)?.status == .serviceUnavailable
    /// ```
    public let status: HTTPResponse.Status

    /// Wraps a status; the middleware makes these, a test may too.
    ///
    /// ```swift
    /// let outcome = ScopeOutcome.failed(OpenAPIServerErrorStatus(status: .badGateway))
    /// ```
    ///
    /// - Parameter status: The response's status.
    public init(status: HTTPResponse.Status) {
        self.status = status
    }

    /// The status's code and reason: `503 Service Unavailable`.
    ///
    /// ```swift
    /// print(OpenAPIServerErrorStatus(status: .serviceUnavailable))   // 503 Service Unavailable
    /// ```
    public var description: String { "\(status.code) \(status.reasonPhrase)" }
}
