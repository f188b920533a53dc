import Hummingbird
import Logging

extension ObjectionScopeMiddleware {
    /// What the body of every unexpected failure says: the status's reason, the same for every
    /// error, so that a client learns nothing of the object graph.
    static var failureMessage: String { "Internal Server Error" }

    /// Logs `error` in full with the request's logger, and answers with a `500` that does not
    /// describe it: a missing binding names the types of the graph, and a provider's error may
    /// carry anything.
    static func internalServerError(for error: any Error, request: Request, context: Context) -> Response {
        context.logger.error(
            "Request failed; answered 500",
            metadata: [
                "error.type": .string(String(reflecting: type(of: error))),
                "error": .string(String(describing: error)),
            ]
        )
        let failure = HTTPError(.internalServerError, message: failureMessage)
        do {
            return try failure.response(from: request, context: context)
        } catch {
            // Only a context's custom encoder can fail here; its error says nothing the client may see.
            return Response(status: .internalServerError)
        }
    }
}
