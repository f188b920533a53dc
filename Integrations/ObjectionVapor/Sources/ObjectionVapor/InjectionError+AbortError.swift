import Objection
import Vapor

/// An ``Objection/InjectionError`` that reaches Vapor's `ErrorMiddleware` is an opaque `500`,
/// whatever the environment: its reason is the status's own, never the error's message, which
/// names the application's types. Without this, Vapor shows a plain error's description outside
/// the release environment.
///
/// ObjectionVapor logs the error (``Objection/LoggableError``) with the request's logger where it
/// sees it — in ``ObjectionScopeMiddleware`` and in `req.resolve` on a route it does not wrap. An injection
/// error from code that calls `app.injector` directly on such a route is answered the same way,
/// but Vapor logs only this reason: log it there, or wrap the route.
///
/// ```swift
/// app.get("pay") { req in try await req.resolve(PaymentGateway.self) }   // no middleware
/// // → 500 {"error":true,"reason":"Internal Server Error"}; the request's log names the type
/// ```
extension InjectionError: @retroactive AbortError {
    /// Always `500 Internal Server Error`.
    ///
    /// ```swift
    /// InjectionError(code: .missingBinding, message: "…").status   // .internalServerError
    /// ```
    public var status: HTTPResponseStatus { .internalServerError }

    /// The status's own reason, `Internal Server Error`, the same for every injection error.
    ///
    /// ```swift
    /// InjectionError(code: .missingBinding, message: "…").reason   // "Internal Server Error"
    /// ```
    public var reason: String { HTTPResponseStatus.internalServerError.reasonPhrase }
}
