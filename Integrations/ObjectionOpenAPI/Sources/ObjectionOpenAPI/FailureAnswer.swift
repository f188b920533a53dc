import HTTPTypes
import Logging
import Objection
import OpenAPIRuntime

/// How ``ObjectionOpenAPIMiddleware`` answers an operation that threw.
enum FailureAnswer {
    /// The body of every opaque `500`: the status's reason, the same for every error, so that a
    /// client learns nothing of the object graph.
    static let message = "Internal Server Error"

    /// `error` as the client hears it.
    ///
    /// An error that says how it is answered with a status other than 500 — a
    /// `HTTPResponseConvertible` of yours, or the runtime's for a request it could not parse,
    /// carried in a `ServerError` — is rethrown unchanged, for `ErrorHandlingMiddleware` or the
    /// transport to answer, as without Objection; so is a `CancellationError` (the client left).
    /// Anything else is logged and answered with a `500` whose body is ``message``.
    static func response(for error: any Error, logger: Logger) throws -> (HTTPResponse, HTTPBody?) {
        if error is CancellationError { throw error }
        if let convertible = error as? any HTTPResponseConvertible,
            convertible.httpStatus != .internalServerError
        {
            throw error
        }
        logger.error("Operation failed; answered 500", metadata: metadata(of: error))
        return (
            HTTPResponse(status: .internalServerError, headerFields: [.contentType: "text/plain; charset=utf-8"]),
            HTTPBody(message)
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
        let cause = cause(of: error)
        let type = String(reflecting: Swift.type(of: cause))
        return ["error.type": .string(type), "error": .string((cause as? InjectionError)?.description ?? type)]
    }
}
