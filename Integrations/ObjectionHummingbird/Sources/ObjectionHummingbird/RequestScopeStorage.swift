import Objection

/// What ``ObjectionScopeMiddleware`` leaves in an ``InjectingRequestContext``: the request's scope
/// and its id.
///
/// A context stores it as it stores Hummingbird's `CoreRequestContextStorage`, created empty:
///
/// ```swift
/// struct AppRequestContext: InjectingRequestContext {
///     var coreContext: CoreRequestContextStorage
///     var requestScope = RequestScopeStorage()
///
///     init(source: Source) {
///         self.coreContext = .init(source: source)
///     }
/// }
/// ```
public struct RequestScopeStorage: Sendable {
    /// The request scope, while ``ObjectionScopeMiddleware`` serves the request; `nil` before it
    /// runs, or on a route it does not wrap. Once the response is produced the scope has ended and
    /// resolving in it throws ``InjectionError/Code/shutDown``.
    ///
    /// ```swift
    /// let audit = try await context.requestScope.injector?.getIfBound(AuditTrail.self)
    /// ```
    public internal(set) var injector: InjectorActor?

    /// The request's id, once ``ObjectionScopeMiddleware`` has settled it; `nil` before.
    ///
    /// ```swift
    /// let id = context.requestScope.requestID?.value ?? "-"
    /// ```
    public internal(set) var requestID: RequestIdentifier?

    /// Creates empty storage, for a context's initializer.
    ///
    /// ```swift
    /// self.requestScope = RequestScopeStorage()
    /// ```
    public init() {}
}
