import Objection

/// The bindings of one request scope: the values only a request has.
///
/// ``RequestScopeMiddleware`` opens a scope with it for every request:
///
/// ```swift
/// try await injector.withScope(modules: [RequestModule(requestID: id, user: user)]) { _ in
///     try await next(request, context)
/// }
/// ```
public struct RequestModule: Module {
    /// The request's id.
    public var requestID: RequestIdentifier
    /// The authenticated user.
    public var user: AuthenticatedUser

    /// Creates the module.
    ///
    /// - Parameters:
    ///   - requestID: The request's id.
    ///   - user: The authenticated user.
    public init(requestID: RequestIdentifier, user: AuthenticatedUser) {
        self.requestID = requestID
        self.user = user
    }

    public func configure(_ binder: Binder) {
        binder.bind(RequestIdentifier.self).toInstance(requestID)
        binder.bind(AuthenticatedUser.self).toInstance(user)
    }
}
