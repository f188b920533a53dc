import NIOCore
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

    /// The request's id, once settled; `nil` before.
    ///
    /// ``ObjectionScopeMiddleware`` settles it unless a middleware of yours that runs before it
    /// already has: then the scope middleware adopts that id as is, without checking it (it is
    /// your middleware's to make safe for logs and headers), and adds the logger's `request-id`
    /// metadata and the response's `X-Request-ID` header only where your middleware did not set
    /// them, so that a request pays for its id once.
    ///
    /// ```swift
    /// struct TraceIDMiddleware<Context: InjectingRequestContext>: RouterMiddleware {
    ///     func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
    ///         async throws -> Response {
    ///         var context = context
    ///         let id = RequestIdentifier(traceID(of: request))
    ///         context.requestScope.requestID = id
    ///         context.logger[metadataKey: "request-id"] = .string(id.value)
    ///         var response = try await next(request, context)
    ///         if let name = HTTPField.Name("X-Request-ID") { response.headers[name] = id.value }
    ///         return response
    ///     }
    /// }
    /// ```
    public var requestID: RequestIdentifier?

    /// Creates empty storage, for a context's initializer.
    ///
    /// ```swift
    /// self.requestScope = RequestScopeStorage()
    /// ```
    /// The connection the request came on, if the context was given it
    /// (``BasicInjectingRequestContext`` is): a streamed body's scope then ends failed, not
    /// succeeded, when the connection has closed before the body finishes — a client that left
    /// while the body waited between writes, which no write has told.
    ///
    /// ```swift
    /// init(source: ApplicationRequestContextSource) {
    ///     self.coreContext = .init(source: source)
    ///     self.requestScope = RequestScopeStorage(connection: source.channel)
    /// }
    /// ```
    public var connection: (any Channel)?

    /// Empty storage, for a context's `init(source:)`.
    ///
    /// ```swift
    /// var requestScope = RequestScopeStorage()
    /// ```
    ///
    /// - Parameter connection: The request's connection, if the context's source has it.
    public init(connection: (any Channel)? = nil) {
        self.connection = connection
    }
}
