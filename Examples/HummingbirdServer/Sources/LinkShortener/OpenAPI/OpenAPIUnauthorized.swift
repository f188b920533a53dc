import HTTPTypes
import OpenAPIRuntime

/// A request without a valid `Authorization: Bearer <name>`, answered `401` with a
/// `WWW-Authenticate: Bearer` challenge by the OpenAPI runtime's `ErrorHandlingMiddleware`; it
/// passes through `ObjectionOpenAPIMiddleware`, which rethrows an error that says its status.
struct OpenAPIUnauthorized: Error, HTTPResponseConvertible {
    var httpStatus: HTTPResponse.Status { .unauthorized }
    var httpHeaderFields: HTTPFields { [.wwwAuthenticate: "Bearer"] }
}
