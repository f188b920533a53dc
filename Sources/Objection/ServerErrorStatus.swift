/// How a request scope ended when its handler answered with a `5xx` response instead of
/// throwing: the ``ScopeOutcome/error`` that outcome-aware disposals see, the same under every
/// server integration.
///
/// A handler that answers `503` has failed as surely as one that throws, so the integrations end
/// the request's scope with ``ScopeOutcome/failed(_:)`` and this error (see
/// ``ScopeOutcome/afterResponse(code:reasonPhrase:)``), and a unit of work rolls back. The client
/// still gets the handler's response, unchanged.
///
/// ```swift
/// binder.bind(UnitOfWork.self).to(UnitOfWork.init).inScope(.scoped).onDispose { work, outcome in
///     if let failed = outcome.error as? ServerErrorStatus {
///         logger.debug("rolling back after \(failed.status.code)")
///     }
///     if outcome.isSuccess { try await work.commit() } else { try await work.rollBack() }
/// }
/// ```
public struct ServerErrorStatus: Error, Sendable, Hashable, CustomStringConvertible {
    /// A `5xx` status: its code and reason phrase. Two statuses are equal when their codes are.
    ///
    /// ```swift
    /// (outcome.error as? ServerErrorStatus)?.status == .serviceUnavailable
    /// ```
    public struct Status: Sendable, Hashable, CustomStringConvertible {
        /// The status code, `500` to `599`.
        public let code: Int
        /// The reason phrase the response carried: `Service Unavailable`.
        public let reasonPhrase: String

        /// A status with its code and reason phrase, as a framework's response carries them.
        ///
        /// ```swift
        /// let status = ServerErrorStatus.Status(code: 529, reasonPhrase: "Site Overloaded")
        /// ```
        public init(code: Int, reasonPhrase: String) {
            self.code = code
            self.reasonPhrase = reasonPhrase
        }

        /// `500 Internal Server Error`.
        public static let internalServerError = Status(code: 500, reasonPhrase: "Internal Server Error")
        /// `501 Not Implemented`.
        public static let notImplemented = Status(code: 501, reasonPhrase: "Not Implemented")
        /// `502 Bad Gateway`.
        public static let badGateway = Status(code: 502, reasonPhrase: "Bad Gateway")
        /// `503 Service Unavailable`.
        public static let serviceUnavailable = Status(code: 503, reasonPhrase: "Service Unavailable")
        /// `504 Gateway Timeout`.
        public static let gatewayTimeout = Status(code: 504, reasonPhrase: "Gateway Timeout")

        /// Whether the codes are equal; the reason phrases may differ.
        public static func == (lhs: Status, rhs: Status) -> Bool { lhs.code == rhs.code }

        /// Hashes the code.
        public func hash(into hasher: inout Hasher) { hasher.combine(code) }

        /// The code and reason: `503 Service Unavailable`.
        public var description: String { "\(code) \(reasonPhrase)" }
    }

    /// The status the handler answered with.
    ///
    /// ```swift
    /// (outcome.error as? ServerErrorStatus)?.status.code == 503
    /// ```
    public let status: Status

    /// Wraps a status; the integrations make these, a test may too.
    ///
    /// ```swift
    /// let outcome = ScopeOutcome.failed(ServerErrorStatus(status: .badGateway))
    /// ```
    ///
    /// - Parameter status: The response's status.
    public init(status: Status) {
        self.status = status
    }

    /// The status's code and reason: `503 Service Unavailable`.
    ///
    /// ```swift
    /// print(ServerErrorStatus(status: .serviceUnavailable))   // 503 Service Unavailable
    /// ```
    public var description: String { status.description }
}

extension ScopeOutcome {
    /// How a request's scope ends after its handler answered with a response, rather than
    /// throwing: failed with a ``ServerErrorStatus`` for a `5xx` status, succeeded for any other.
    ///
    /// ```swift
    /// let outcome = ScopeOutcome.afterResponse(code: 503, reasonPhrase: "Service Unavailable")
    /// outcome.isSuccess   // false
    /// ```
    ///
    /// - Parameters:
    ///   - code: The response's status code.
    ///   - reasonPhrase: The response's reason phrase.
    public static func afterResponse(code: Int, reasonPhrase: String) -> ScopeOutcome {
        (500...599).contains(code)
            ? .failed(ServerErrorStatus(status: .init(code: code, reasonPhrase: reasonPhrase))) : .succeeded
    }
}
