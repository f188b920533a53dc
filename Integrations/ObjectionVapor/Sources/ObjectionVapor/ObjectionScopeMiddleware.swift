import Logging
import NIOHTTP1
import Objection
import Vapor

/// Opens one Objection request scope per request, and ends it when the response has been
/// produced.
///
/// For each request it:
///
/// 1. binds the request's ``RequestIdentifier`` (Vapor's `req.id`), then lets your closure bind
///    the rest of the request's values — by default its `Logger`, `req.logger`, unless the
///    injector binds `Logger` itself — as the scope's
///    ``Objection/ScopeValues``: no module and no binding table per request;
/// 2. runs the rest of the chain in the scope (``Objection/InjectorActor/openScope(values:)``),
///    with the scope in `req.storage` for ``Vapor/Request/resolve(_:named:)``;
/// 3. ends the scope, disposing its scoped instances, each told how the request ended
///    (``Objection/ScopeOutcome/failed(_:)`` with the thrown error, or with a
///    ``Objection/ServerErrorStatus`` for a `5xx` response): when the handler throws or returns its
///    response, before the response is written — or, for a body made with
///    ``Vapor/Response/Body/init(keepingScopeOf:count:_:)``, once that stream has ended (its end
///    sent after the disposals) or failed, the client gone.
///
/// Errors are sorted. An `AbortError` (`Abort` included), from the handler, a provider or your
/// closure, passes through unchanged to Vapor's `ErrorMiddleware`, and so does the parser's error
/// for a malformed body. Any other error, an
/// ``Objection/InjectionError`` or a provider's own, is logged with the request's logger (by
/// ``Objection/LoggableError``: its type, and an injection error's description, never another
/// error's)
/// and rethrown as `Abort(.internalServerError)`, which `ErrorMiddleware` answers with a `500`
/// whose body names nothing: no type, no binding, no message, in every environment.
///
/// Add it after `ErrorMiddleware` (the application's default middleware starts with it), so that
/// its `Abort` is rendered; and after any authenticator whose user your closure reads: a route
/// group's middleware runs after the application's.
///
/// ```swift
/// app.useInjector(injector)
/// app.grouped(UserAuthenticator()).grouped(ObjectionScopeMiddleware(injector) { req, values in
///     values.bind(Logger.self, to: req.logger)
///     if let user = req.auth.get(User.self) { values.bind(User.self, to: user) }
/// }).get("orders") { req in
///     try await req.resolve(OrderService.self).list()
/// }
/// ```
///
/// Vapor writes a streamed body after the middleware has returned, and shows it no way into a
/// body it did not make: a stream that reads the request's scoped instances is made with
/// ``Vapor/Response/Body/init(keepingScopeOf:count:_:)``, which keeps the scope open to its last
/// byte. Any other stream (`Response.Body(asyncStream:)`, `stream:`) is written after the scope
/// ended, and must not use scoped instances. A disposal that fails turns a response into the
/// opaque `500`: a scoped instance that commits work when disposed must not fail silently; once a
/// kept stream's head has been sent that cannot be, so the failure is logged and the stream ends
/// in that error.
public struct ObjectionScopeMiddleware: AsyncMiddleware {
    /// The injector the request scopes are opened in, usually the application's.
    ///
    /// ```swift
    /// let middleware = ObjectionScopeMiddleware(injector)
    /// assert(middleware.injector === injector)
    /// ```
    public let injector: InjectorActor

    private let bindValues: @Sendable (Request, inout ScopeValues) async throws -> Void

    /// Creates the middleware, which binds the request's `Logger`, `req.logger`, unless
    /// `injector` binds `Logger` itself (other than with `suppliedByScope()`): then the
    /// injector's logger is the one resolved.
    ///
    /// ```swift
    /// app.middleware.use(ObjectionScopeMiddleware(injector))
    /// ```
    ///
    /// - Parameter injector: The injector to open the scopes in.
    public init(_ injector: InjectorActor) {
        if injector.acceptsScopeValue(for: Logger.self) {
            self.init(injector) { request, values in values.bind(Logger.self, to: request.logger) }
        } else {
            self.init(injector) { _, _ in }
        }
    }

    /// Creates the middleware, with your closure binding the request's values.
    ///
    /// ```swift
    /// app.middleware.use(ObjectionScopeMiddleware(injector) { req, values in
    ///     values.bind(Logger.self, to: req.logger)
    ///     values.bind(Tenant.self, to: try Tenant(from: req.headers))
    /// })
    /// ```
    ///
    /// - Parameters:
    ///   - injector: The injector to open the scopes in.
    ///   - values: Binds the request's values, after its ``RequestIdentifier``; it runs before the
    ///     scope opens, and what it throws is sorted like the handler's errors (throw an `Abort`
    ///     to refuse the request). The values' keys must be declared with `suppliedByScope()` or
    ///     unbound in `injector` (``Objection/InjectorActor/acceptsScopeValue(for:named:)``).
    public init(
        _ injector: InjectorActor,
        values: @escaping @Sendable (Request, inout ScopeValues) async throws -> Void
    ) {
        self.injector = injector
        self.bindValues = values
    }

    /// Serves `request` in a new request scope; Vapor calls this, through the middleware it is
    /// added to.
    ///
    /// ```swift
    /// app.middleware.use(ObjectionScopeMiddleware(injector))
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - next: The rest of the chain.
    /// - Returns: The response the chain produced.
    /// - Throws: An `AbortError` from the chain or the `values` closure, and a malformed body's
    ///   `HTTPParserError`, unchanged; any other error as ``Objection/RequestFailure`` sorts it: a
    ///   `CancellationError` unchanged, a refusal while the injector shuts down as
    ///   `Abort(.serviceUnavailable)`, anything else as `Abort(.internalServerError)`, after
    ///   logging it.
    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            // Vapor takes `req.id` from the client's `X-Request-Id` unchecked, and logs it as
            // `request-id`: one that is not well-formed is replaced in both.
            let id = RequestIdentifier(adopting: request.id)
            if id.value != request.id { request.logger[metadataKey: "request-id"] = .string(id.value) }
            var values = ScopeValues()
            values.bind(RequestIdentifier.self, to: id)
            try await bindValues(request, &values)
            let open = try await injector.openScope { $0 = values }
            let keeper = ScopeKeeper(open)
            let response: Response
            do {
                // An outer scope middleware's scope, restored for the rest of its chain. One key
                // holds the keeper, which holds the scope: each `storage` write boxes its value in
                // a generic type looked up at run time (a second key cost 8,900 instructions per
                // request, counted in process by .ci/instruction-counts).
                let enclosing = request.storage[ScopeKeeperKey.self]
                request.storage[ScopeKeeperKey.self] = keeper
                defer { request.storage[ScopeKeeperKey.self] = enclosing }
                response = try await InjectorActor.withCurrent(open.injector) { try await next.respond(to: request) }
            } catch {
                // The handler's error wins over a disposal's, which is logged.
                await open.endAfterFailure(error) { logDisposalFailure($0, to: request.logger) }
                throw error
            }
            // A 5xx answer: the client gets it, the scope's work is rolled back.
            let code = Int(clamping: response.status.code)
            let outcome = ScopeOutcome.afterResponse(code: code, reasonPhrase: response.status.reasonPhrase)
            // A body made with Response.Body(keepingScopeOf:) ends the scope with that outcome once
            // it has ended. Released unwritten, it ends it so only when there was nothing to write
            // (a HEAD, a 204, a 304), else failed: a middleware answered instead, or the server gave it up.
            if keeper.isKeptByABody {
                keeper.outcome = outcome
                let logger = request.logger
                open.endsWhenReleased(with: outcome.ifReleasedUnwritten(isHead: request.method == .HEAD, code: code)) {
                    logDisposalFailure($0, to: logger)
                }
                return response
            }
            if let failure = outcome.error {
                await open.endAfterFailure(failure) { logDisposalFailure($0, to: request.logger) }
                return response
            }
            if response.body.count == -1 {
                request.logger.debug(
                    "A streamed body not made with Response.Body(keepingScopeOf:): its request scope ends before it is written"
                )
            }
            try await open.end(.succeeded)
            return response
        } catch let error as InjectionError {
            // An AbortError too (InjectionError+AbortError.swift), but one to sort and log.
            throw Self.answer(error, request: request)
        } catch let error as any AbortError {
            throw error
        } catch let error as HTTPParserError {
            // A malformed body, found while the route collects it: Vapor closes the connection.
            throw error
        } catch {
            throw Self.answer(error, request: request)
        }
    }
}
