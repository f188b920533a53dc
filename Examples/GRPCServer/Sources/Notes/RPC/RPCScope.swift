import Objection

/// The request scope of the RPC the current task serves, as `ObjectionScopeInterceptor` opened it:
/// handlers reach it through this, never through an injector passed to them.
///
/// ```swift
/// let id = try await RPCScope.current().get(RPCRequestID.self)
/// ```
enum RPCScope {
    /// The current RPC's scope.
    ///
    /// - Throws: `InjectionError` with code `scopeViolation` outside an RPC served through
    ///   `ObjectionScopeInterceptor` (the interceptor answers it as an opaque `internalError`).
    static func current() throws -> InjectorActor {
        guard let scope = InjectorActor.currentScope else {
            throw InjectionError(
                code: .scopeViolation, message: "No RPC scope: serve the method through ObjectionScopeInterceptor")
        }
        return scope
    }
}
