import HTTPTypes
import Hummingbird
import Logging
import NIOHTTP1
import Objection

/// Opens one Objection request scope per request, and ends it when the response has been produced —
/// for a streamed body, once its last byte has been written.
///
/// For each request it:
///
/// 1. settles the request's ``RequestIdentifier`` and adds it to the context's logger as
///    `request-id` metadata, unless an earlier middleware of yours settled it in
///    ``RequestScopeStorage/requestID``: then that id is used as is, unchecked, and the metadata
///    and the header of step 5 are added only where that middleware did not set them;
/// 2. lets your closure bind the request's values (its id, the authenticated user) as the scope's
///    ``ScopeValues``: no module and no binding table per request;
/// 3. runs the rest of the chain in the scope (``InjectorActor/openScope(values:)``), with the
///    scope in the context for ``InjectingRequestContext/resolve(_:named:)``;
/// 4. ends the scope, disposing its scoped instances: when the handler throws; when it returns a
///    response whose length is known (a buffer, a string, an encoded value: everything a handler
///    returns but a stream), before the response is written; when it returns a body streamed
///    without a known length (`ResponseBody(asyncSequence:)`, a writer closure without
///    `contentLength`), once that body has been written — its last byte handed to the server
///    before the response is finished — or has failed, the client gone. The disposals are told
///    the outcome: failed with the handler's error, or with a ``Objection/ServerErrorStatus`` for a
///    `5xx` response (which the client still gets unchanged), and succeeded otherwise;
/// 5. echoes the id in the response's `X-Request-ID` header.
///
/// Errors are sorted. An `HTTPResponseError` (`HTTPError` included), from the handler, a provider
/// or your closure, passes through unchanged. Any other error, an ``InjectionError`` or a
/// provider's own, is logged with the request's logger (by ``Objection/LoggableError``: its type,
/// and an injection error's description, never another error's) and answered with a `500` whose
/// body names nothing: no type, no binding, no message. Add middleware that turns your own errors
/// into HTTP errors *after* this one, so that it runs inside it and sees them first.
///
/// ```swift
/// let router = Router(context: BasicInjectingRequestContext.self)
/// router.add(middleware: ObjectionScopeMiddleware(injector) { request, context, values in
///     if let id = context.requestID { values.bind(RequestIdentifier.self, to: id) }
///     values.bind(Logger.self, to: context.logger)
/// })
/// router.get("orders") { _, context in
///     try await context.resolve(OrderService.self).list()
/// }
/// ```
///
/// A streamed body may use the request's scoped instances until its last byte: they are disposed
/// after it, with the response's outcome (``Objection/ScopeOutcome/succeeded``, or failed with a
/// ``Objection/ServerErrorStatus`` for a `5xx`), or with the write's error when the client left
/// mid-stream. A disposal that fails after a response that succeeded turns a response of known
/// length into the opaque `500` (after a `5xx` or a thrown error it is logged, and the first
/// failure stays the one the client hears of):
/// a scoped instance that commits work when disposed must not fail silently. Once a streamed
/// body's head has been sent that cannot be: the failure is logged, and the response is ended
/// without its end (the connection is closed), so that the client does not read it as complete.
/// A stream with a known `contentLength` is ended like a buffer, before it is written: give such a
/// body no `contentLength` if it reads scoped instances.
public struct ObjectionScopeMiddleware<Context: InjectingRequestContext>: RouterMiddleware {
    /// The injector the request scopes are opened in, usually the application's root.
    ///
    /// ```swift
    /// let middleware = ObjectionScopeMiddleware<BasicInjectingRequestContext>(root)
    /// assert(middleware.injector === root)
    /// ```
    public let injector: InjectorActor

    private let bindValues: @Sendable (Request, Context, inout ScopeValues) async throws -> Void

    /// Creates the middleware.
    ///
    /// ```swift
    /// ObjectionScopeMiddleware(injector) { request, context, values in
    ///     values.bind(AuthenticatedUser.self, to: try AuthenticatedUser(from: request))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - injector: The injector to open the scopes in.
    ///   - values: Binds the request's values. It sees the context with its ``RequestIdentifier``
    ///     settled (or adopted) and in the logger's metadata, and runs before the scope opens;
    ///     what it throws is sorted like the handler's errors (throw an `HTTPError` to refuse the
    ///     request). The values' keys must be declared with ``BindingBuilder/suppliedByScope()``
    ///     or unbound in `injector`. By default it binds nothing.
    public init(
        _ injector: InjectorActor,
        values: @escaping @Sendable (Request, Context, inout ScopeValues) async throws -> Void = { _, _, _ in }
    ) {
        self.injector = injector
        self.bindValues = values
    }

    /// Serves `request` in a new request scope; Hummingbird calls this, through the router it is
    /// added to.
    ///
    /// ```swift
    /// router.add(middleware: ObjectionScopeMiddleware(injector))
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: Its context.
    ///   - next: The rest of the chain.
    /// - Returns: The response, with the request's `X-Request-ID` (an adopted id's own header, if
    ///   its middleware set one already); for an error that is not an `HTTPResponseError`, a `503`
    ///   when the injector refused the request because it is shutting down, else a bare `500`
    ///   (``Objection/RequestFailure``).
    /// - Throws: An `HTTPResponseError` from the chain or the `values` closure, unchanged; a
    ///   `CancellationError`, nobody listening.
    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        // An id an earlier middleware settled usually comes with its metadata and header, which
        // are then read, not written: writing the metadata copies the logger's (1.3 of the 2 µs
        // a second settling cost per request, profiled in the example server).
        let adopted = context.requestScope.requestID
        let id = adopted ?? RequestIdentifier.settle(for: request, logger: context.logger)
        if adopted == nil { context.requestScope.requestID = id }
        if adopted == nil || context.logger[metadataKey: Logger.requestIDKey] == nil {
            context.logger[metadataKey: Logger.requestIDKey] = .string(id.value)
        }
        var response: Response
        do {
            var values = ScopeValues()
            try await bindValues(request, context, &values)
            let open = try await injector.openScope { $0 = values }
            do {
                // In place, not in a copy: a context's copy and its destruction retain and release
                // its every reference (0.4 µs per request, profiled in the example server).
                context.requestScope.injector = open.injector
                defer { context.requestScope.injector = nil }
                response = try await withTaskCancellationHandler {
                    try await InjectorActor.withCurrent(open.injector) { try await next(request, context) }
                } onCancel: { [logger = context.logger] in
                    // Hummingbird cancels a handler only when its server is cancelled — a graceful
                    // shutdown past its bound — so this names a request the shutdown is waiting on.
                    Self.logStillRunning(request, logger: logger)
                }
            } catch {
                // The handler's error wins over a disposal's, which is logged.
                await ScopeEndingBody.endAfterFailure(open, error: error, logger: context.logger)
                throw error
            }
            // A 5xx answer: the client gets it, the scope's work is rolled back.
            // Read once: `status` parses the response head's pseudo-header field on each read.
            let status = response.status
            let outcome = ScopeOutcome.afterResponse(code: status.code, reasonPhrase: status.reasonPhrase)
            if response.body.contentLength == nil {
                response.body = ScopeEndingBody.wrap(
                    response.body, ending: open, after: outcome,
                    unwritten: outcome.ifReleasedUnwritten(isHead: request.method == .head, code: status.code),
                    // Watched only if open now (a router test's channel never is).
                    connection: context.requestScope.connection.flatMap { $0.isActive ? $0 : nil },
                    logger: context.logger)
            } else if let failure = outcome.error {
                await ScopeEndingBody.endAfterFailure(open, error: failure, logger: context.logger)
            } else {
                try await open.end(.succeeded)
            }
        } catch let error as any HTTPResponseError {
            throw error
        } catch let error as HTTPParserError {
            // A malformed request: Hummingbird answers it with a 400 and closes the connection.
            throw error
        } catch {
            response = try Self.answer(error, request: request, context: context)
        }
        if let name = HTTPField.Name.requestID, adopted == nil || response.headers[name] == nil {
            response.headers[name] = id.value
        }
        return response
    }

    /// Logs, at `warning` with the request's logger (its `request-id`), that `request` — its
    /// method and path, never its query — was still running when the server was cancelled.
    static func logStillRunning(_ request: Request, logger: Logger) {
        logger.warning(
            "Request still running when the server was cancelled",
            metadata: ["http.method": .string(request.method.rawValue), "http.path": .string(request.uri.path)]
        )
    }
}
