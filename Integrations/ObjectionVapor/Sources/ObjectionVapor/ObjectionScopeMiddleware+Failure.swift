import Logging
import Objection
import Vapor

extension ObjectionScopeMiddleware {
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

/// What is logged of `error`: ``Objection/LoggableError``'s type and description.
func loggedMetadata(of error: any Error) -> Logger.Metadata {
    let logged = LoggableError(error)
    return ["error.type": .string(logged.typeName), "error": .string(logged.description)]
}
