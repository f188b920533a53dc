import HTTPTypes
import Hummingbird
import Logging
import NIOHTTP1

/// Gives every request an id and every response its `X-Request-ID` header, error responses
/// included.
///
/// Added to the router before any route, so that it wraps all of them and the router's own `404`
/// for an unknown path. It adopts the client's `X-Request-ID` when it is usable (see
/// ``RequestIdentity/clientRequestID(of:)``), keeping the context's new id otherwise, and renders
/// errors into responses itself, so that it can tag those too: an `HTTPResponseError` as
/// Hummingbird would render it, any other error as an empty `500`. The one response it cannot
/// reach is the `400` HummingbirdCore writes, before closing the connection, for a request it
/// cannot parse as HTTP.
public struct RequestIDMiddleware: RouterMiddleware {
    public typealias Context = AppRequestContext

    /// Creates the middleware.
    public init() {}

    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        if let id = RequestIdentity.clientRequestID(of: request) { context.requestID = id }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPParserError {
            // Hummingbird answers a malformed request itself, and closes the connection.
            throw error
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        } catch {
            // What Hummingbird answers for an error it does not know, and how it logs it.
            context.logger.debug("Unrecognised Error", metadata: ["error.type": "\(error)"])
            response = Response(status: .internalServerError)
        }
        if let name = HTTPField.Name.requestID { response.headers[name] = context.requestID.value }
        return response
    }
}
