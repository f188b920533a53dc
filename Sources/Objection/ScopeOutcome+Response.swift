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

    /// How a request's scope ends when the server releases its response's body without writing
    /// it: this outcome for a response that has no body to send — the answer to a `HEAD`, a `204`,
    /// a `304` — else failed with a `CancellationError`: the server gave the body up, its client
    /// gone before the head was sent, and the request's work must not commit as if answered.
    ///
    /// ```swift
    /// let outcome = ScopeOutcome.afterResponse(code: 200, reasonPhrase: "OK")
    /// open.endsWhenReleased(with: outcome.ifReleasedUnwritten(isHead: request.method == .head, code: 200))
    /// ```
    ///
    /// - Parameters:
    ///   - isHead: Whether the request was a `HEAD`, whose answer has no body.
    ///   - code: The response's status code.
    /// - Returns: This outcome for a bodiless response, else ``failed(_:)`` with a
    ///   `CancellationError`.
    public func ifReleasedUnwritten(isHead: Bool, code: Int) -> ScopeOutcome {
        isHead || code == 204 || code == 304 ? self : .failed(CancellationError())
    }
}
