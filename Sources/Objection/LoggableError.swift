/// An error as a log line, a span or a report may show it: its type, and an ``InjectionError``'s
/// own description — which names types, binding names and source locations, never a bound value —
/// but never another error's description, which may carry a value (a connection string with its
/// password, a token, a row).
///
/// Every integration logs errors this way, and so does the library's logging observer: a user who
/// wants more logs it in their own code, where they know what the error holds.
///
/// ```swift
/// let logged = LoggableError(error)
/// logger.error("Request failed", metadata: ["error.type": "\(logged.typeName)", "error": "\(logged)"])
/// // error.type=PostgresNIO.PSQLError error=PSQLError
/// ```
public struct LoggableError: Error, Sendable, CustomStringConvertible {
    /// The error's type, qualified by its module: `PostgresNIO.PSQLError`.
    ///
    /// ```swift
    /// LoggableError(CancellationError()).typeName   // "Swift.CancellationError"
    /// ```
    public let typeName: String

    /// An ``InjectionError``'s description; else the error's type's name, unqualified.
    ///
    /// ```swift
    /// LoggableError(CancellationError()).description   // "CancellationError"
    /// ```
    public let description: String

    /// What may be shown of `error`.
    ///
    /// ```swift
    /// span.recordError(LoggableError(error))
    /// ```
    public init(_ error: any Error) {
        typeName = String(reflecting: type(of: error))
        description = (error as? InjectionError)?.description ?? String(describing: type(of: error))
    }

    /// What may be thrown on to code that logs errors it does not know (a server's transport, a
    /// body writer): a `CancellationError` as it is, which such code tells apart; any other
    /// error as a ``LoggableError``.
    ///
    /// ```swift
    /// } catch {
    ///     throw LoggableError.shown(error)   // a body's error, on to the server, which logs it
    /// }
    /// ```
    ///
    /// - Parameter error: The error to throw on.
    /// - Returns: The error to throw instead.
    public static func shown(_ error: any Error) -> any Error {
        error is CancellationError ? error : LoggableError(error)
    }
}
