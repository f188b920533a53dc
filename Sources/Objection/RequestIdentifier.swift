/// The id of one request, for following it through logs and services: one type for every server
/// integration, each settling it as its framework does (Hummingbird's middleware from a
/// well-formed `X-Request-ID` or a new id, Vapor's `req.id`, gRPC's `x-request-id` metadata) and
/// binding it in the request's scope.
///
/// Declare it with ``BindingBuilder/suppliedByScope()``, and a scoped or transient binding can
/// take it as a dependency:
///
/// ```swift
/// binder.bind(RequestIdentifier.self).suppliedByScope()
/// binder.bind(AuditTrail.self).to(AuditTrail.init)   // init(requestID: RequestIdentifier)
/// ```
public struct RequestIdentifier: Sendable, Hashable, CustomStringConvertible {
    /// The id, as it travels in headers and metadata.
    ///
    /// ```swift
    /// let id = try await scope.get(RequestIdentifier.self).value
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
