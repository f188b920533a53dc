import Hummingbird

/// A request context that carries the request's Objection scope, so that handlers resolve their
/// dependencies from it: `try await context.resolve(CheckoutService.self)`.
///
/// ``BasicInjectingRequestContext`` is a ready-made one. To add fields of your own, conform your
/// context and store a ``RequestScopeStorage``:
///
/// ```swift
/// struct AppRequestContext: InjectingRequestContext {
///     var coreContext: CoreRequestContextStorage
///     var requestScope: RequestScopeStorage
///     var tenant: String?
///
///     init(source: Source) {
///         self.coreContext = .init(source: source)
///         self.requestScope = RequestScopeStorage(connection: source.channel)
///     }
/// }
///
/// let router = Router(context: AppRequestContext.self)
/// router.add(middleware: ObjectionScopeMiddleware(injector))
/// ```
public protocol InjectingRequestContext: RequestContext {
    /// The request's scope and id, set by ``ObjectionScopeMiddleware`` (the id possibly by a
    /// middleware of yours before it; see ``RequestScopeStorage/requestID``).
    ///
    /// ```swift
    /// var requestScope = RequestScopeStorage()
    /// ```
    var requestScope: RequestScopeStorage { get set }
}
