import Objection

extension InjectingRequestContext {
    /// The request's id, as ``ObjectionScopeMiddleware`` settled it; `nil` on a route it does not
    /// wrap.
    ///
    /// ```swift
    /// router.get("whoami") { _, context in context.requestID?.value ?? "-" }
    /// ```
    public var requestID: RequestIdentifier? { requestScope.requestID }

    /// Resolves `type`, optionally qualified by `name`, in the request's scope.
    ///
    /// A ``Scope/scoped`` binding gives one instance per request; the scope disposes it when the
    /// response is produced. Everything else resolves as it would in the root injector.
    ///
    /// ```swift
    /// router.post("checkout") { request, context in
    ///     let checkout = try await context.resolve(CheckoutService.self)
    ///     let primary = try await context.resolve(Database.self, named: "primary")
    ///     return try await checkout.run(on: primary)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The bound type to resolve.
    ///   - name: The binding's name, or `nil` for the unnamed binding.
    /// - Returns: The instance the binding's scope dictates.
    /// - Throws: ``InjectionError/Code/scopeViolation`` when no ``ObjectionScopeMiddleware`` wraps
    ///   the route, ``InjectionError/Code/shutDown`` after the response has been produced, and
    ///   otherwise what ``InjectorActor/get(_:named:)`` throws. Under the middleware, an error that
    ///   is not an `HTTPResponseError` becomes an opaque `500`.
    nonisolated(nonsending) public func resolve<T: Sendable>(
        _ type: T.Type = T.self,
        named name: String? = nil
    ) async throws -> T {
        guard let scope = requestScope.injector else {
            throw InjectionError(
                code: .scopeViolation,
                message: "No request scope to resolve '\(T.self)' in: add ObjectionScopeMiddleware to the router "
                    + "(or the group) before the route"
            )
        }
        return try await scope.get(type, named: name)
    }
}
