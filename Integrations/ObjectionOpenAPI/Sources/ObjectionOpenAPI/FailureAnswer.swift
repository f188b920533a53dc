import HTTPTypes
import Logging
import Objection
import OpenAPIRuntime

/// How ``ObjectionOpenAPIMiddleware`` answers an operation that threw.
enum FailureAnswer {
    /// `error` as the client hears it.
    ///
    /// - An error that says how it is answered with a status other than 500 — a
    ///   `HTTPResponseConvertible` of yours, or the runtime's for a request it could not parse,
    ///   carried in a `ServerError` — is answered here as the runtime's `ErrorHandlingMiddleware`
    ///   would: with its status, header fields and body. Rethrown, the `ServerError` around it
    ///   would reach the transport with the request's header fields and the operation's input in
    ///   its description, which a transport logs, and Vapor, outside release builds, shows.
    /// - A `CancellationError` (the request's task cancelled) is rethrown: nobody is listening.
    /// - The injector refusing the scope because it is shutting down is answered `503`, logged
    ///   at `notice`: the server is draining, the client may retry elsewhere.
    /// - Anything else is logged at `error` and answered with a `500` whose body is the status's
    ///   reason, `Internal Server Error`, the same for every error, so that a client learns nothing
    ///   of the object graph.
    static func response(for error: any Error, log: OperationLog) throws -> (HTTPResponse, HTTPBody?) {
        let cause = cause(of: error)
        let failure = RequestFailure(cause)
        if failure == .cancelled { throw cause }
        if let convertible = error as? any HTTPResponseConvertible,
            convertible.httpStatus != .internalServerError
        {
            return (
                HTTPResponse(status: convertible.httpStatus, headerFields: convertible.httpHeaderFields),
                convertible.httpBody
            )
        }
        if failure == .shuttingDown {
            log.notice("Operation refused: the injector is shutting down; answered 503")
            return plainText(.serviceUnavailable)
        }
        log.error("Operation failed; answered 500", metadata: metadata(of: error))
        return plainText(.internalServerError)
    }

    /// A response whose body is `status`'s reason phrase.
    private static func plainText(_ status: HTTPResponse.Status) -> (HTTPResponse, HTTPBody?) {
        (
            HTTPResponse(status: status, headerFields: [.contentType: "text/plain; charset=utf-8"]),
            HTTPBody(status.reasonPhrase)
        )
    }

    /// The error the operation threw, out of the `ServerError` the runtime wraps it in: what the
    /// scope's disposals are told, and what is logged.
    static func cause(of error: any Error) -> any Error {
        (error as? ServerError)?.underlyingError ?? error
    }

    /// What is logged of `error`: the cause the runtime wrapped in a `ServerError`, by an
    /// ``Objection/InjectionError``'s description (types and binding names only) or else by its
    /// type alone. Never a description of anything else: a `ServerError`'s names the request and
    /// the operation's input and output, a provider's error may carry a password.
    static func metadata(of error: any Error) -> Logger.Metadata {
        let logged = LoggableError(cause(of: error))
        return ["error.type": .string(logged.typeName), "error": .string(logged.description)]
    }
}
