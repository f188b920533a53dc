public import HTTPTypes
public import Logging
public import Objection
public import OpenAPIRuntime

/// Opens one Objection request scope per OpenAPI operation, and ends it once the operation's
/// response has been made: for a body, as the transport writes its last chunk — never when the
/// handler returns.
///
/// For each request it:
///
/// 1. binds the request's values in the scope's ``Objection/ScopeValues``: its
///    ``OpenAPIOperation``, its `HTTPRequest` and `ServerRequestMetadata` (the path parameters),
///    and what your closure adds (the authenticated caller, say);
/// 2. runs the rest of the chain — later middlewares, decoding, your `APIProtocol` handler,
///    encoding — with the scope as the task's current injector: handlers resolve from
///    `InjectorActor.currentScope`, so the injector is not passed around;
/// 3. ends the scope: at once for a response without a body; for one with a body, once the
///    transport has iterated it to its end — when the chunk holding a known length's last byte
///    has been made, or when a body of unknown length ends, before the transport sends it on (each
///    chunk is made in the scope, so a streamed body reads the request's scoped instances until
///    its last byte). The outcome is ``Objection/ScopeOutcome/succeeded``, or failed: with the
///    operation's error (the handler's own, out of the runtime's `ServerError`), with an
///    ``Objection/ServerErrorStatus`` for a `5xx` response, with the body's error, with a length
///    mismatch for a body short of its declared length or whose chunk crosses it, or with a
///    `CancellationError` for a body given up (the client left) or never written when it should
///    have been.
///
/// Errors are answered here, never rethrown with the request inside them. One that says how it is
/// answered with a status other than 500 — your `HTTPResponseConvertible` error, the runtime's
/// `400` for a request it could not decode — gets that response, as `ErrorHandlingMiddleware`
/// would give it. An injector that refuses the scope because it is shutting down gets a `503`.
/// Anything else — an ``Objection/InjectionError``, a provider's own error — is logged with the
/// middleware's logger (an injection error's description, which names types only; another
/// error's type, since its description may carry values) and answered with a `500` whose body is
/// `Internal Server Error`, the same for every error. A `CancellationError` is rethrown. A
/// disposal that fails turns a successful response without a body into that `500`, and cuts a
/// body short (a transaction that failed to commit must not look committed).
///
/// A transport does not cancel a body's iteration when the client leaves: a stream waiting for
/// its next chunk (server-sent events) learns of it only when its next write fails, and its scope
/// stays open until then, or until the drain's deadline at shutdown.
///
/// ```swift
/// let router = Router()
/// try api.registerHandlers(on: router, middlewares: [ObjectionOpenAPIMiddleware(injector, log: log)])
/// // In the APIProtocol's handler:
/// let orders = try await InjectorActor.currentScope?.get(OrderRepository.self)
/// ```
///
/// Why `InjectorActor.currentScope`: the generated `APIProtocol` methods take the operation's
/// input alone, with no context a middleware could extend; the task-local current scope reaches
/// every function the handler calls, child tasks included.
///
/// One scope per request: under a transport whose router also runs Objection's scope middleware
/// (`ObjectionHummingbird`, `ObjectionVapor`), register the OpenAPI handlers on routes without it.
public struct ObjectionOpenAPIMiddleware: ServerMiddleware {
    /// The injector the scopes are opened in, usually the application's root.
    ///
    /// ```swift
    /// let middleware = ObjectionOpenAPIMiddleware(root, log: log)
    /// assert(middleware.injector === root)
    /// ```
    public let injector: InjectorActor
    private let logger: Logger
    private let bindValues: @Sendable (Call, inout ScopeValues) async throws -> Void

    /// What the middleware's closure sees of a request.
    public struct Call: Sendable {
        /// The request's head: method, path, header fields.
        public let request: HTTPRequest
        /// The request's path parameters.
        public let metadata: ServerRequestMetadata
        /// The operation it calls.
        public let operation: OpenAPIOperation
    }

    /// Creates the middleware.
    ///
    /// ```swift
    /// ObjectionOpenAPIMiddleware(injector, log: log) { call, values in
    ///     if let token = call.request.headerFields[.authorization] {
    ///         values.bind(Caller.self, to: try await Caller(token: token))
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - injector: The injector to open the scopes in.
    ///   - logger: Where errors answered with the opaque `500` are logged, with the operation id.
    ///   - values: Binds more of the request's values; its keys must be declared with
    ///     `suppliedByScope()` or unbound in `injector`. What it throws is sorted like a
    ///     handler's error.
    public init(
        _ injector: InjectorActor,
        logger: Logger,
        values: @escaping @Sendable (Call, inout ScopeValues) async throws -> Void = { _, _ in }
    ) {
        self.injector = injector
        self.logger = logger
        self.bindValues = values
    }

    /// Serves one operation in a scope of its own; the generated `registerHandlers` calls this.
    ///
    /// ```swift
    /// try api.registerHandlers(on: transport, middlewares: [middleware])
    /// ```
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let log = OperationLog(logger: logger, operationID: operationID)
        let operation = OpenAPIOperation(id: operationID)
        let scope: OpenScope
        do {
            var values = ScopeValues()
            values.bind(OpenAPIOperation.self, to: operation)
            values.bind(HTTPRequest.self, to: request)
            values.bind(ServerRequestMetadata.self, to: metadata)
            try await bindValues(Call(request: request, metadata: metadata, operation: operation), &values)
            scope = try await injector.openScope { $0 = values }
        } catch {
            return try FailureAnswer.response(for: error, log: log)
        }
        let response: HTTPResponse
        let responseBody: HTTPBody?
        do {
            (response, responseBody) = try await InjectorActor.withCurrent(scope.injector) {
                try await next(request, body, metadata)
            }
        } catch {
            await ScopeEnding.end(scope, afterFailure: FailureAnswer.cause(of: error), log: log)
            return try FailureAnswer.response(for: error, log: log)
        }
        // A 5xx response: the client gets it, the scope's work is rolled back.
        // Read once: HTTPResponse.status parses its pseudo-header field on each read.
        let status = response.status
        let outcome = ScopeOutcome.afterResponse(code: status.code, reasonPhrase: status.reasonPhrase)
        guard let responseBody else {
            do {
                try await ScopeEnding.end(scope, with: outcome, log: log)
            } catch {
                return try FailureAnswer.response(for: error, log: log)
            }
            return (response, nil)
        }
        let body = ScopeEndingBody.wrap(
            responseBody,
            ending: scope,
            after: outcome,
            unwritten: outcome.ifReleasedUnwritten(isHead: request.method == .head, code: status.code),
            log: log
        )
        return (response, body)
    }
}
