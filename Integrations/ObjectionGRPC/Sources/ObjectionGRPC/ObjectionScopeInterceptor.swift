import GRPCCore
import Logging
import Objection
import ServiceLifecycle

/// Opens one Objection request scope per RPC, and ends it when the RPC has ended: for a streamed
/// response, once its last message has been written — never when the handler returns.
///
/// For each RPC it:
///
/// 1. binds the RPC's own values in the scope's ``Objection/ScopeValues``: its `ServerContext`,
///    its `MethodDescriptor`, its ``RPCRequestID`` (the caller's `x-request-id` metadata, checked,
///    or a new one), and what your closure adds (the authenticated caller, say);
/// 2. runs the rest of the chain — the handler — with the scope as the task's current injector:
///    handlers resolve from `InjectorActor.currentScope`, so the injector is not passed around;
/// 3. runs the response's message producer in the scope too, and ends the scope after it: with
///    ``Objection/ScopeOutcome/succeeded`` once the last message has been written, or failed —
///    with the handler's or the producer's error, with the `RPCError` the RPC was refused with,
///    or with a `CancellationError` when the client cancelled the RPC or its deadline passed
///    (grpc-swift tells that through the context's cancellation handle, not by cancelling the
///    task). An RPC that finishes while the server shuts down gracefully ends succeeded: the
///    transport cancels the handle then too, but the client gets every message and status OK.
///    That needs the server run by `GRPCServerService` or another service of a `ServiceGroup`
///    (`Task.isShuttingDownGracefully`): outside one, a graceful shutdown cannot be told from a
///    client's cancellation, and the RPC ends as cut short. A handle cancelled before the
///    shutdown began — seen as the interceptor starts, or while the handler or the producer
///    runs — is a cut however late the RPC ends. An RPC whose scope ended failed because it was
///    cut short is never answered OK: it fails `cancelled`, or `deadlineExceeded`
///    (``cutShortMessage``), so that no client is told work succeeded that was rolled back;
/// 4. sends the request id back in the initial metadata.
///
/// Errors are sorted. An `RPCError` (and an `RPCErrorConvertible`) passes through unchanged. Any
/// other error — an ``Objection/InjectionError``, a provider's own — is logged with the
/// interceptor's logger (an injection error's description, which names types only; another
/// error's type, since its description may carry values) and answered with `RPCError(code: .internalError, message: "Internal
/// error")`, which names nothing: no type, no binding, no value. A disposal that fails turns a
/// successful RPC into that error too (a transaction that failed to commit must not look
/// committed).
///
/// ```swift
/// let server = GRPCServer(
///     transport: .http2NIOPosix(address: .ipv4(host: "0.0.0.0", port: 8080), transportSecurity: .plaintext),
///     services: [OrderService()],
///     interceptors: [ObjectionScopeInterceptor(injector, logger: logger)]
/// )
/// // In a handler:
/// let orders = try await InjectorActor.currentScope?.get(OrderRepository.self)
/// ```
///
/// Why `InjectorActor.currentScope` rather than an accessor on `ServerContext`: grpc-swift's
/// context is a value the framework makes and owns, with no storage for middleware to extend, and
/// the task-local current scope reaches every function the handler calls, child tasks included,
/// without threading a parameter through them.
public struct ObjectionScopeInterceptor: ServerInterceptor {
    /// The injector the scopes are opened in, usually the application's root.
    ///
    /// ```swift
    /// let interceptor = ObjectionScopeInterceptor(root, logger: logger)
    /// assert(interceptor.injector === root)
    /// ```
    public let injector: InjectorActor
    private let logger: Logger
    private let bindValues: @Sendable (Call, inout ScopeValues) throws -> Void

    /// What the interceptor's closure sees of an RPC: its metadata and context.
    public struct Call: Sendable {
        /// The request's metadata.
        public let metadata: Metadata
        /// The RPC's context: its method, peers and cancellation handle.
        public let context: ServerContext
    }

    /// Creates the interceptor.
    ///
    /// ```swift
    /// ObjectionScopeInterceptor(injector, logger: logger) { rpc, values in
    ///     if let token = rpc.metadata[stringValues: "authorization"].first(where: { _ in true }) {
    ///         values.bind(Caller.self, to: try Caller(token: token))
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - injector: The injector to open the scopes in.
    ///   - logger: Where errors answered as `internalError`, refusals during shutdown and failed
    ///     disposals are logged, with the RPC's method and request id.
    ///   - values: Binds more of the RPC's values; its keys must be declared with
    ///     `suppliedByScope()` or unbound in `injector`. What it throws is sorted like a
    ///     handler's error. The interceptor's own values (`ServerContext`, `MethodDescriptor`,
    ///     ``RPCRequestID``) are bound after it, and replace any it binds under those keys.
    public init(
        _ injector: InjectorActor,
        logger: Logger,
        values: @escaping @Sendable (Call, inout ScopeValues) throws -> Void = { _, _ in }
    ) {
        self.injector = injector
        self.logger = logger
        self.bindValues = values
    }

    /// Serves one RPC in a scope of its own; grpc-swift calls this.
    ///
    /// ```swift
    /// GRPCServer(transport: transport, services: services, interceptors: [interceptor])
    /// ```
    public func intercept<Input: Sendable, Output: Sendable>(
        request: StreamingServerRequest<Input>,
        context: ServerContext,
        next: @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
    ) async throws -> StreamingServerResponse<Output> {
        let deadline = request.metadata[stringValues: "grpc-timeout"].first { _ in true }
            .flatMap { RPCDeadline(timeout: $0, from: .now) }
        // Cut already, outside a graceful shutdown: its deadline passed, or its client left,
        // before this interceptor ran (one listed before it took its time). grpc-swift's own
        // deadline clock starts before any interceptor, this one's later. Then watched while the
        // handler and the producer run: a cut seen before a shutdown began still counts after it.
        let watch = CutWatch(isCut: Self.isCutOutsideShutdown(context))
        let id = RPCRequestID(adopting: request.metadata[stringValues: RPCRequestID.metadataKey].first { _ in true })
        // The method and id are added when something is logged, not to every RPC's logger.
        let logger = RPCLogger(logger, method: context.descriptor.fullyQualifiedMethod, requestID: id.value)
        let scope: OpenScope
        do {
            var values = ScopeValues()
            try bindValues(Call(metadata: request.metadata, context: context), &values)
            // Bound after the closure's, which cannot replace them: the id the scope holds is the
            // one the response carries and the logs name.
            values.bind(ServerContext.self, to: context)
            values.bind(MethodDescriptor.self, to: context.descriptor)
            values.bind(RPCRequestID.self, to: id)
            scope = try await injector.openScope { $0 = values }
        } catch {
            throw Self.rpcError(for: error, logger: logger)
        }
        var response: StreamingServerResponse<Output>
        do {
            response = try await watch.watching {
                try await InjectorActor.withCurrent(scope.injector) { try await next(request, context) }
            }
        } catch {
            await Self.end(scope, afterFailure: error, logger: logger)
            throw Self.rpcError(for: error, logger: logger)
        }
        switch response.accepted {
        case .success(var contents):
            // Released unrun (the client left before the first write): the scope ends failed,
            // and a disposal that fails then is logged like any other.
            scope.endsWhenReleased(with: Self.releasedUnrun) { [logger] in Self.log($0, logger: logger) }
            contents.metadata.replaceOrAddString(id.value, forKey: RPCRequestID.metadataKey)
            contents.producer = Self.producer(
                contents.producer, in: scope, context: context, deadline: deadline, watch: watch, logger: logger)
            response.accepted = .success(contents)
        case .failure(let error):
            // Refused: no message will be written.
            await Self.end(scope, afterFailure: error, logger: logger)
        }
        return response
    }

    /// `producer`, run in `scope`, which it ends once it has returned or thrown; if grpc-swift
    /// never calls the producer (the client gone before the initial metadata was written), the
    /// scope ends failed when the response is released, its failed disposals logged.
    private static func producer<Output: Sendable>(
        _ producer: @escaping @Sendable (RPCWriter<Output>) async throws -> Metadata,
        in scope: OpenScope,
        context: ServerContext,
        deadline: RPCDeadline?,
        watch: CutWatch,
        logger: RPCLogger
    ) -> @Sendable (RPCWriter<Output>) async throws -> Metadata {
        { writer in
            // A client that leaves, or a deadline that passes, before a graceful shutdown begins
            // is a cut, whenever the producer returns.
            let trailers: Metadata
            do {
                trailers = try await watch.watching {
                    try await InjectorActor.withCurrent(scope.injector) { try await producer(writer) }
                }
            } catch {
                await end(scope, afterFailure: error, logger: logger)
                throw rpcError(for: error, logger: logger)
            }
            guard !wasCutShort(context, deadline: deadline, isCut: watch.isCut) else {
                await end(scope, afterFailure: CancellationError(), logger: logger)
                // Its work was rolled back: a client still listening (a deadline that passed, a
                // server shut down gracefully outside a service group) must not hear OK.
                throw RPCError(
                    code: deadline?.hasPassed == true ? .deadlineExceeded : .cancelled,
                    message: cutShortMessage
                )
            }
            do {
                try await scope.endAfterResponse { log($0, logger: logger) }
            } catch {
                // Logged as the disposal's failure: answered internalError without a second line.
                throw RPCError(code: .internalError, message: internalErrorMessage)
            }
            return trailers
        }
    }

    /// Whether an RPC whose producer returned was cut short by its client (a cancellation, a
    /// reset stream) or its deadline, rather than finished.
    ///
    /// grpc-swift tells all three through the context's cancellation handle, but
    /// grpc-swift-nio-transport cancels that handle on graceful shutdown too, and there the RPC
    /// goes on: its client gets every message and status OK, so its scope must end succeeded.
    /// Once the server shuts down gracefully (`Task.isShuttingDownGracefully`, true in a server
    /// run by `GRPCServerService` or any other service of a `ServiceGroup`), the handle no longer
    /// tells a client's cancellation apart; the deadline still does, and a client that left shows
    /// where the producer writes — the write throws, and the scope ends failed with it. `isCut`:
    /// the handle was seen cancelled before the shutdown began (``isCutOutsideShutdown(_:)``), so
    /// the shutdown did not cancel it.
    private static func wasCutShort(_ context: ServerContext, deadline: RPCDeadline?, isCut: Bool) -> Bool {
        guard context.cancellation.isCancelled else { return false }
        guard Task.isShuttingDownGracefully, !isCut else { return true }
        return deadline?.hasPassed ?? false
    }

    /// Whether the RPC's handle is cancelled while the server is not shutting down gracefully:
    /// then its client or its deadline cancelled it, for certain. Checked as the interceptor
    /// starts, and watched while the handler and the producer run (``CutWatch``), so that a cut
    /// seen before a shutdown began still counts after it.
    private static func isCutOutsideShutdown(_ context: ServerContext) -> Bool {
        context.cancellation.isCancelled && !Task.isShuttingDownGracefully
    }

    /// How the scope of a response released with its producer unrun ends: made once, so that no
    /// RPC boxes an error for an outcome it almost never needs.
    private static let releasedUnrun = ScopeOutcome.failed(CancellationError())

    /// Ends `scope` after a failure; a disposal's failure is logged, the first error stays the one
    /// the client hears of (``Objection/OpenScope/endAfterFailure(_:log:)``).
    private static func end(_ scope: OpenScope, afterFailure error: any Error, logger: RPCLogger) async {
        await scope.endAfterFailure(error) { log($0, logger: logger) }
    }

    /// Logs a disposal that failed as the scope ended.
    private static func log(_ failure: ResponseDisposalFailure, logger: RPCLogger) {
        logger.withMetadata.error("\(failure.message)", metadata: metadata(of: failure.error))
    }

    /// The fixed message of an RPC whose handler returned after it was cut short (cancelled, or
    /// past its deadline): its scope ended failed, so its work was rolled back, and it is answered
    /// `cancelled` or `deadlineExceeded`, never OK.
    ///
    /// ```swift
    /// if error.code == .cancelled, error.message == ObjectionScopeInterceptor.cutShortMessage { retry() }
    /// ```
    public static let cutShortMessage = "The call was cut short; its work was rolled back"

    /// The fixed message of every error answered as `internalError`.
    public static let internalErrorMessage = "Internal error"

    /// The fixed message of every error answered as `unavailable` because the injector is
    /// shutting down.
    public static let shuttingDownMessage = "The server is shutting down"

    /// `error` as the client hears it: an `RPCError` or `RPCErrorConvertible` as is, the rest as
    /// ``Objection/RequestFailure`` sorts it — a cancellation `cancelled` (``cutShortMessage``), a
    /// refusal while the injector shuts down `unavailable` (logged at `notice`; the client may
    /// retry elsewhere), anything else logged and answered with the opaque `internalError`.
    static func rpcError(for error: any Error, logger: RPCLogger) -> any Error {
        if error is RPCError || error is any RPCErrorConvertible { return error }
        switch RequestFailure(error) {
        case .cancelled:
            // Its scope ended failed. grpc-swift would answer a CancellationError `unknown`.
            return RPCError(code: .cancelled, message: cutShortMessage)
        case .shuttingDown:
            logger.withMetadata.notice("RPC refused: the injector is shutting down; answered unavailable")
            return RPCError(code: .unavailable, message: shuttingDownMessage)
        case .unexpected:
            logger.withMetadata.error("RPC failed; answered internalError", metadata: metadata(of: error))
            return RPCError(code: .internalError, message: internalErrorMessage)
        }
    }

    /// What is logged of `error`: ``Objection/LoggableError``'s type and description — an
    /// injection error's description, which names types and binding names only, or else the
    /// error's type alone, since any other error's description may carry values.
    private static func metadata(of error: any Error) -> Logger.Metadata {
        let logged = LoggableError(error)
        return ["error.type": .string(logged.typeName), "error": .string(logged.description)]
    }
}
