import Logging
import Vapor

extension ObjectionScopeMiddleware {
    /// Logs `error` in full with the request's logger, and returns the `Abort` that stands for it:
    /// a `500` whose reason is the status's own, the same for every error, so that a client
    /// learns nothing of the object graph. A missing binding names the graph's types, and a
    /// provider's error may carry anything; Vapor's `ErrorMiddleware` would show the description
    /// of either outside the production environment, and a `DebuggableError`'s reason in every
    /// one.
    static func internalServerError(for error: any Error, request: Request) -> Abort {
        logFailure(error, of: request)
        return Abort(.internalServerError)
    }

    /// Logs `error`, which the client will see as an opaque `500`, in full with the request's
    /// logger.
    static func logFailure(_ error: any Error, of request: Request) {
        request.logger.error(
            "Request failed; answered 500",
            metadata: [
                "error.type": .string(String(reflecting: type(of: error))),
                "error": .string(String(describing: error)),
            ]
        )
    }
}
