import Logging
import Objection
import Vapor

extension ObjectionScopeMiddleware {
    /// The error that answers `error`, which is not an `AbortError` of the application's, as
    /// ``Objection/RequestFailure`` sorts it: a cancellation unchanged, a refusal while shutting
    /// down a `503`, logged at `notice`, anything else an opaque `500`.
    static func answer(_ error: any Error, request: Request) -> any Error {
        switch RequestFailure(error) {
        case .cancelled:
            return error
        case .shuttingDown:
            request.logger.notice("Request refused: the injector is shutting down; answered 503")
            return Abort(.serviceUnavailable)
        case .unexpected:
            return internalServerError(for: error, request: request)
        }
    }

    /// Logs `error` with the request's logger (see ``logFailure(_:of:)``), and returns the `Abort`
    /// that stands for it:
    /// a `500` whose reason is the status's own, the same for every error, so that a client
    /// learns nothing of the object graph. A missing binding names the graph's types, and a
    /// provider's error may carry anything; Vapor's `ErrorMiddleware` would show the description
    /// of either outside the production environment, and a `DebuggableError`'s reason in every
    /// one.
    static func internalServerError(for error: any Error, request: Request) -> Abort {
        logFailure(error, of: request)
        return Abort(.internalServerError)
    }

    /// Logs `error`, which the client will see as an opaque `500`, with the request's logger: its
    /// type, and an `InjectionError`'s description (``Objection/LoggableError``), never another
    /// error's, which may carry a password.
    static func logFailure(_ error: any Error, of request: Request) {
        request.logger.error("Request failed; answered 500", metadata: loggedMetadata(of: error))
    }
}

/// Logs a disposal that failed after a response (``Objection/ResponseDisposalFailure``) at `error`.
func logDisposalFailure(_ failure: ResponseDisposalFailure, to logger: Logger) {
    logger.error("\(failure.message)", metadata: loggedMetadata(of: failure.error))
}

/// What is logged of `error`: ``Objection/LoggableError``'s type and description.
func loggedMetadata(of error: any Error) -> Logger.Metadata {
    let logged = LoggableError(error)
    return ["error.type": .string(logged.typeName), "error": .string(logged.description)]
}
