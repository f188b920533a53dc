/// The id of one request, for following it through logs and services: Vapor's `req.id`.
///
/// Vapor sets `req.id` to the client's `X-Request-Id` header when it sends one, else to a new
/// UUID, and already logs it as the `request-id` metadata of `req.logger`. A client's id is taken
/// as Vapor takes it, unchecked: treat it as the client's text.
/// ``ObjectionScopeMiddleware`` binds it in every request scope, so a scoped or transient binding
/// can take it as a dependency: declare it with `suppliedByScope()`.
///
/// ```swift
/// binder.bind(RequestIdentifier.self).suppliedByScope()
/// binder.bind(AuditTrail.self).to(AuditTrail.init)   // init(requestID: RequestIdentifier)
/// ```
public struct RequestIdentifier: Sendable, Hashable, CustomStringConvertible {
    /// The id, as Vapor's `req.id` holds it.
    ///
    /// ```swift
    /// let id = try await req.resolve(RequestIdentifier.self).value
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

    /// The id itself, as logs print it.
    ///
    /// ```swift
    /// logger.info("forwarding \(id)")   // forwarding 0C1F6D0E-…
    /// ```
    public var description: String { value }
}
