import Hummingbird
import Logging
import Objection

extension ObjectionScopeMiddleware {
    /// What the body of every unexpected failure says: the status's reason, the same for every
    /// error, so that a client learns nothing of the object graph.
    static var failureMessage: String { "Internal Server Error" }

    /// Logs `error` with the request's logger — its type, and an `InjectionError`'s description
    /// (``Objection/LoggableError``), never another error's, which may carry a password — and
    /// answers with a `500` that does not describe it: a missing binding names the types of the
    /// graph, and a provider's error may carry anything.
    static func internalServerError(for error: any Error, request: Request, context: Context) -> Response {
        context.logger.error("Request failed; answered 500", metadata: loggedMetadata(of: error))
        let failure = HTTPError(.internalServerError, message: failureMessage)
        do {
            return try failure.response(from: request, context: context)
        } catch {
            // Only a context's custom encoder can fail here; its error says nothing the client may see.
            return Response(status: .internalServerError)
        }
    }
}

/// What is logged of `error`: ``Objection/LoggableError``'s type and description.
func loggedMetadata(of error: any Error) -> Logger.Metadata {
    let logged = LoggableError(error)
    return ["error.type": .string(logged.typeName), "error": .string(logged.description)]
}
