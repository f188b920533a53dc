import Hummingbird
import Logging
import Objection

extension ObjectionScopeMiddleware {
    /// The answer to `error`, which is not an `HTTPResponseError`, as ``Objection/RequestFailure``
    /// classifies it: a cancellation rethrown, a refusal while shutting down a `503`, anything
    /// else an opaque `500`.
    static func answer(_ error: any Error, request: Request, context: Context) throws -> Response {
        switch RequestFailure(error) {
        case .cancelled:
            throw error
        case .shuttingDown:
            context.logger.notice("Request refused: the injector is shutting down; answered 503")
            return plainResponse(.serviceUnavailable, request: request, context: context)
        case .unexpected:
            return internalServerError(for: error, request: request, context: context)
        }
    }

    /// Logs `error` with the request's logger — its type, and an `InjectionError`'s description
    /// (``Objection/LoggableError``), never another error's, which may carry a password — and
    /// answers with a `500` whose message is the status's reason, the same for every error, so
    /// that a client learns nothing of the object graph: a missing binding names the types of the
    /// graph, and a provider's error may carry anything.
    static func internalServerError(for error: any Error, request: Request, context: Context) -> Response {
        context.logger.error("Request failed; answered 500", metadata: loggedMetadata(of: error))
        return plainResponse(.internalServerError, request: request, context: context)
    }

    /// A response with `status` whose message is the status's reason, encoded as Hummingbird
    /// encodes an `HTTPError`.
    private static func plainResponse(_ status: HTTPResponse.Status, request: Request, context: Context) -> Response {
        let failure = HTTPError(status, message: status.reasonPhrase)
        do {
            return try failure.response(from: request, context: context)
        } catch {
            // Only a context's custom encoder can fail here; its error says nothing the client may see.
            return Response(status: status)
        }
    }
}

/// What is logged of `error`: ``Objection/LoggableError``'s type and description.
func loggedMetadata(of error: any Error) -> Logger.Metadata {
    let logged = LoggableError(error)
    return ["error.type": .string(logged.typeName), "error": .string(logged.description)]
}
