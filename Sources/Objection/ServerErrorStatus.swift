/// How a request scope ended when its handler answered with a `5xx` response instead of
/// throwing: the ``ScopeOutcome/error`` that outcome-aware disposals see, the same under every
/// HTTP integration (Hummingbird, Vapor, OpenAPI; a gRPC handler fails by throwing).
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
        /// The status code, `500` to `599`: `failed.status.code == 503`.
        public let code: Int
        /// The reason phrase the response carried: `failed.status.reasonPhrase == "Service Unavailable"`.
        public let reasonPhrase: String

        /// A status with its code and reason phrase, as a framework's response carries them.
        ///
        /// ```swift
        /// let status = ServerErrorStatus.Status(code: 529, reasonPhrase: "Site Overloaded")
        /// ```
        ///
        /// - Parameters:
        ///   - code: The status code.
        ///   - reasonPhrase: The reason phrase.
        public init(code: Int, reasonPhrase: String) {
            self.code = code
            self.reasonPhrase = reasonPhrase
        }

        /// `500 Internal Server Error`: `(outcome.error as? ServerErrorStatus)?.status == .internalServerError`.
        public static let internalServerError = Status(code: 500, reasonPhrase: "Internal Server Error")
        /// `501 Not Implemented`: `(outcome.error as? ServerErrorStatus)?.status == .notImplemented`.
        public static let notImplemented = Status(code: 501, reasonPhrase: "Not Implemented")
        /// `502 Bad Gateway`: `(outcome.error as? ServerErrorStatus)?.status == .badGateway`.
        public static let badGateway = Status(code: 502, reasonPhrase: "Bad Gateway")
        /// `503 Service Unavailable`: `(outcome.error as? ServerErrorStatus)?.status == .serviceUnavailable`.
        public static let serviceUnavailable = Status(code: 503, reasonPhrase: "Service Unavailable")
        /// `504 Gateway Timeout`: `(outcome.error as? ServerErrorStatus)?.status == .gatewayTimeout`.
        public static let gatewayTimeout = Status(code: 504, reasonPhrase: "Gateway Timeout")
        /// `505 HTTP Version Not Supported`: `(outcome.error as? ServerErrorStatus)?.status == .httpVersionNotSupported`.
        public static let httpVersionNotSupported = Status(code: 505, reasonPhrase: "HTTP Version Not Supported")
        /// `506 Variant Also Negotiates`: `(outcome.error as? ServerErrorStatus)?.status == .variantAlsoNegotiates`.
        public static let variantAlsoNegotiates = Status(code: 506, reasonPhrase: "Variant Also Negotiates")
        /// `507 Insufficient Storage`: `(outcome.error as? ServerErrorStatus)?.status == .insufficientStorage`.
        public static let insufficientStorage = Status(code: 507, reasonPhrase: "Insufficient Storage")
        /// `508 Loop Detected`: `(outcome.error as? ServerErrorStatus)?.status == .loopDetected`.
        public static let loopDetected = Status(code: 508, reasonPhrase: "Loop Detected")
        /// `510 Not Extended`: `(outcome.error as? ServerErrorStatus)?.status == .notExtended`.
        public static let notExtended = Status(code: 510, reasonPhrase: "Not Extended")
        /// `511 Network Authentication Required`: `(outcome.error as? ServerErrorStatus)?.status == .networkAuthenticationRequired`.
        public static let networkAuthenticationRequired = Status(
            code: 511, reasonPhrase: "Network Authentication Required")

        /// Whether the codes are equal; the reason phrases may differ.
        ///
        /// ```swift
        /// Status(code: 503, reasonPhrase: "Busy") == .serviceUnavailable   // true
        /// ```
        ///
        /// - Parameters:
        ///   - lhs: A status.
        ///   - rhs: Another status.
        /// - Returns: `true` when their codes are equal.
        public static func == (lhs: Status, rhs: Status) -> Bool { lhs.code == rhs.code }

        /// Hashes the code, as `==` compares it.
        ///
        /// ```swift
        /// let statuses: Set<ServerErrorStatus.Status> = [.badGateway, .serviceUnavailable]
        /// ```
        ///
        /// - Parameter hasher: The hasher to feed.
        public func hash(into hasher: inout Hasher) { hasher.combine(code) }

        /// The code and reason: `503 Service Unavailable`.
        ///
        /// ```swift
        /// print(ServerErrorStatus.Status.badGateway)   // 502 Bad Gateway
        /// ```
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
