/// Request scopes held open past the call that opens them.
extension InjectorActor {
    /// Opens a request scope with the request's values and answers it open, for work that goes
    /// on after the call that opened it returns: a response whose body is written later. End it
    /// with ``OpenScope/end(_:)``.
    ///
    /// Like ``withScope(values:_:)``, but in two calls: use `withScope` whenever the work fits in
    /// one closure.
    ///
    /// ```swift
    /// let open = try await injector.openScope { $0.bind(RequestID.self, to: id) }
    /// do {
    ///     let body = try await InjectorActor.withCurrent(open.injector) { try await render() }
    ///     return body.afterWriting { try await open.end(.succeeded) }
    /// } catch {
    ///     try? await open.end(.failed(error))
    ///     throw error
    /// }
    /// ```
    ///
    /// - Parameter values: Binds the request's values, as in ``withScope(values:_:)``.
    /// - Returns: The scope, open.
    /// - Throws: As ``withScope(values:_:)`` before its body runs: ``InjectionError/Code/shutDown``
    ///   once the injector has shut down, or once its shutdown has begun (unless opened inside a
    ///   request scope still in flight); ``InjectionError/Code/invalidConfiguration`` for values
    ///   that would replace a binding; or the values' error.
    public nonisolated(nonsending) func openScope(
        values: (inout ScopeValues) throws -> Void = { _ in }
    ) async throws -> OpenScope {
        try checkNotShutDown()
        let scope = try requestScope(binding: values)
        guard opening(scope) else { throw await refuse(scope) }
        return OpenScope(injector: scope)
    }
}
