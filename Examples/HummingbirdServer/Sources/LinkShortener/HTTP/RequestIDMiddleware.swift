import HTTPTypes
import Hummingbird
import Logging
import NIOHTTP1
import ObjectionHummingbird

/// Settles every request's id and gives every response its `X-Request-ID` header, error responses
/// included.
///
/// ObjectionHummingbird's `ObjectionScopeMiddleware` would set the header on the responses it
/// produces, its opaque `500` included, but lets an `HTTPError` pass through untouched: the `401`
/// its values closure throws, a handler's `404` or `400`. This middleware, the router's first,
/// renders those itself and tags them, as it tags every other response, and the responses of the
/// routes the scope middleware does not wrap (`/plain`, `/stats`, the router's `404` for an unknown path), with the id
/// ``RequestIdentity/requestID(of:context:)`` settles. It leaves the id in the context's
/// `requestScope.requestID`, where the scope middleware adopts it instead of settling it again,
/// and where the hand-wired route reads it. Any other error that reaches it (the hand-wired
/// route's) is logged by type (`LoggableError`) and answered with an opaque `500`. The one response it cannot reach is the
/// `400` HummingbirdCore writes, before closing the connection, for a request it cannot parse as
/// HTTP.
public struct RequestIDMiddleware<Context: InjectingRequestContext>: RouterMiddleware {
    /// Creates the middleware.
    public init() {}

    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let id = RequestIdentity.requestID(of: request, context: context)
        var context = context
        context.requestScope.requestID = id
        context.logger[metadataKey: "request-id"] = .string(id.value)
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPParserError {
            // Hummingbird answers a malformed request itself, and closes the connection.
            throw error
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        } catch {
            // As the scope middleware answers: the error's type in the log (its description may
            // carry a value, a password in a connection string), nothing of it in the response.
            let logged = LoggableError(error)
            context.logger.error(
                "Request failed; answered 500",
                metadata: ["error.type": .string(logged.typeName), "error": .string(logged.description)]
            )
            response = try HTTPError(.internalServerError, message: "Internal Server Error")
                .response(from: request, context: context)
        }
        if let name = HTTPField.Name.requestID { response.headers[name] = id.value }
        return response
    }
}
