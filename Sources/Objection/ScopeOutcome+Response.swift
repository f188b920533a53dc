/// The outcome a server integration ends a request's scope with after an answer.
extension ScopeOutcome {
    /// How a request's scope ends after its handler answered with a response, rather than
    /// throwing: failed with a ``ServerErrorStatus`` for a `5xx` status, succeeded for any other.
    ///
    /// ```swift
    /// let outcome = ScopeOutcome.afterResponse(code: 503, reasonPhrase: "Service Unavailable")
    /// outcome.isSuccess   // false
    /// ```
    ///
    /// - Parameters:
    ///   - code: The response's status code.
    ///   - reasonPhrase: The response's reason phrase.
    /// - Returns: ``failed(_:)`` with a ``ServerErrorStatus`` for `500` to `599`, else
    ///   ``succeeded``.
    public static func afterResponse(code: Int, reasonPhrase: String) -> ScopeOutcome {
        (500...599).contains(code)
            ? .failed(ServerErrorStatus(status: .init(code: code, reasonPhrase: reasonPhrase))) : .succeeded
    }
}
