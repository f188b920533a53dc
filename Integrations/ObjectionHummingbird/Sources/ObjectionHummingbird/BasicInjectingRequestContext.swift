import Hummingbird

/// The ready-made ``InjectingRequestContext``: Hummingbird's `BasicRequestContext` plus the request
/// scope.
///
/// ```swift
/// let router = Router(context: BasicInjectingRequestContext.self)
/// router.add(middleware: ObjectionScopeMiddleware(injector))
/// router.get("orders") { _, context in
///     try await context.resolve(OrderService.self).list()
/// }
/// ```
public struct BasicInjectingRequestContext: InjectingRequestContext {
    /// Hummingbird's own per-request values: the logger, the route's parameters.
    ///
    /// ```swift
    /// let code = try context.parameters.require("code")   // read through `coreContext`
    /// ```
    public var coreContext: CoreRequestContextStorage
    /// The request's scope and id, set by ``ObjectionScopeMiddleware``.
    ///
    /// ```swift
    /// let scope = context.requestScope.injector   // nil outside the middleware
    /// ```
    public var requestScope: RequestScopeStorage

    /// Creates the context of one request; Hummingbird calls this.
    ///
    /// ```swift
    /// let router = Router(context: BasicInjectingRequestContext.self)
    /// ```
    ///
    /// - Parameter source: The channel and logger of the request.
    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.requestScope = RequestScopeStorage(connection: source.channel)
    }
}
