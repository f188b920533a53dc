/// The operation a request scope serves: bound in every scope ``ObjectionOpenAPIMiddleware``
/// opens, for providers and handlers that log, meter or authorize by operation.
///
/// ```swift
/// binder.bind(AuditEntry.self).to { resolver in
///     AuditEntry(operation: try await resolver.get(OpenAPIOperation.self).id)
/// }.inScope(.scoped)
/// ```
public struct OpenAPIOperation: Sendable, Hashable, CustomStringConvertible {
    /// The operation's `operationId` in the OpenAPI document, `getGreeting` say.
    ///
    /// ```swift
    /// let operation = try await scope.get(OpenAPIOperation.self)
    /// logger.info("serving \(operation.id)")
    /// ```
    public let id: String

    /// Wraps an operation id; the middleware makes these, a test may too.
    ///
    /// ```swift
    /// values.bind(OpenAPIOperation.self, to: OpenAPIOperation(id: "getGreeting"))
    /// ```
    ///
    /// - Parameter id: The operation's `operationId`.
    public init(id: String) {
        self.id = id
    }

    /// The operation id.
    ///
    /// ```swift
    /// print(OpenAPIOperation(id: "getGreeting"))   // getGreeting
    /// ```
    public var description: String { id }
}
