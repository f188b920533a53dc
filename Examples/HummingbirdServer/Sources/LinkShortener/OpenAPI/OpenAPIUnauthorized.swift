import HTTPTypes
import OpenAPIRuntime

/// A request without a valid `Authorization: Bearer <name>`, answered `401` with a
/// `WWW-Authenticate: Bearer` challenge: by `ObjectionOpenAPIMiddleware`, which answers an error
/// that says its status with it, or by the OpenAPI runtime's `ErrorHandlingMiddleware`.
struct OpenAPIUnauthorized: Error, HTTPResponseConvertible {
    var httpStatus: HTTPResponse.Status { .unauthorized }
    var httpHeaderFields: HTTPFields { [.wwwAuthenticate: "Bearer"] }
}
