import Hummingbird
import Objection

/// Opens a request scope around every request of the routes it is added to.
///
/// It authenticates the request (``RequestIdentity``; `401` without a valid bearer), binds the
/// request's id and user as the scope's values (no module, no binding table per request), and runs the rest of the chain inside
/// `withScope`, where the scope is the task-local `InjectorActor.current`. When the handler
/// returns or throws, the scope ends and disposes what it built (the ``RequestAudit``), before
/// the response is written. ``RequestIDMiddleware``, outside it, renders what it throws and tags
/// every response with the request's id.
public struct RequestScopeMiddleware: RouterMiddleware {
    public typealias Context = AppRequestContext

    /// The root injector the scopes are opened in.
    public let injector: InjectorActor

    /// Creates the middleware.
    ///
    /// - Parameter injector: The root injector.
    public init(injector: InjectorActor) {
        self.injector = injector
    }

    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let identity = try RequestIdentity(of: request, context: context)
        return try await injector.withScope(values: { values in
            values.bind(RequestIdentifier.self, to: identity.requestID)
            values.bind(AuthenticatedUser.self, to: identity.user)
        }) { _ in
            try await next(request, context)
        }
    }
}
