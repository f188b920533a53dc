/// The id of one request, for following it through logs and services.
///
/// ``ObjectionScopeMiddleware`` settles it before the request scope opens: the client's
/// `X-Request-ID` when it is well-formed (1 to 128 letters, digits, `.`, `_`, `-` or `:`), else the
/// id Hummingbird gave the request (its `hb.request.id`), else a new random one. The middleware puts
/// it in the request logger's `request-id` metadata and in the response's `X-Request-ID` header,
/// and leaves it in ``RequestScopeStorage/requestID`` for the handler and the scope's values. An
/// id a middleware of yours set there before it is adopted instead (see
/// ``RequestScopeStorage/requestID``).
///
/// ```swift
/// ObjectionScopeMiddleware(injector) { request, context, values in
///     if let id = context.requestID { values.bind(RequestIdentifier.self, to: id) }
/// }
/// ```
public struct RequestIdentifier: Sendable, Hashable, CustomStringConvertible {
    /// The id as sent in the `X-Request-ID` header.
    ///
    /// ```swift
    /// let id = context.requestID?.value ?? "-"
    /// ```
    public let value: String

    /// Wraps an id, as a test or an upstream service might make it; no check is made.
    ///
    /// ```swift
    /// values.bind(RequestIdentifier.self, to: RequestIdentifier("test-1"))
    /// ```
    ///
    /// - Parameter value: The id.
    public init(_ value: String) {
        self.value = value
    }

    /// The id itself, as logs and headers print it.
    ///
    /// ```swift
    /// logger.info("forwarding \(id)")   // forwarding 9f2c41d07a3be815
    /// ```
    public var description: String { value }
}
