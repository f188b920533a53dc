/// How a server answers a request whose handling threw an error its framework does not answer
/// itself: the one classification every server integration applies, after letting the errors
/// meant for the client (Hummingbird's `HTTPError`, Vapor's `AbortError`, an OpenAPI
/// `HTTPResponseConvertible`, gRPC's `RPCError`) through unchanged.
///
/// ```swift
/// switch RequestFailure(error) {
/// case .cancelled: throw error                                  // nobody is listening
/// case .shuttingDown: return Response(status: .serviceUnavailable)
/// case .unexpected: return Response(status: .internalServerError) // say nothing of the error
/// }
/// ```
public enum RequestFailure: Sendable, Equatable {
    /// The request's task was cancelled — the client left, or the server was cancelled — and it
    /// threw `CancellationError`: nobody is listening, and the error is rethrown for the server to
    /// close the exchange. A `CancellationError` thrown while the task was not cancelled is a
    /// failure like any other (``unexpected``).
    case cancelled
    /// The injector refused the work because it is shutting down
    /// (``InjectionError/Code/shutDown``, from the injector rather than from a request scope that
    /// has ended): answered `503 Service Unavailable` (gRPC's `unavailable`) and logged at
    /// `notice`, so that the client may retry on another instance. Resolving in a request scope
    /// that has already ended is a bug of the server's, not a refusal: ``unexpected``.
    case shuttingDown
    /// Anything else: answered with an opaque `500 Internal Server Error` (gRPC's
    /// `internalError`) whose body says nothing of the error, and logged at `error` as
    /// ``LoggableError`` describes it — a provider's error may carry a password.
    case unexpected

    /// Classifies `error`, thrown in the request's task (whose cancellation it reads).
    ///
    /// ```swift
    /// RequestFailure(CancellationError())   // .cancelled
    /// ```
    ///
    /// - Parameter error: What the handler, or the scope around it, threw.
    public init(_ error: any Error) {
        if error is CancellationError, Task.isCancelled {
            self = .cancelled
        } else if let refusal = error as? InjectionError, refusal.code == .shutDown, !refusal.isEndedScope {
            self = .shuttingDown
        } else {
            self = .unexpected
        }
    }
}
