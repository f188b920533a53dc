import Objection
import Vapor

extension Request {
    /// The request's Objection scope, while ``ObjectionScopeMiddleware`` serves the request and
    /// while a body made with `Response.Body(keepingScopeOf:)` is written; `nil` before the
    /// middleware runs, after the response has been produced, or on a route it does not wrap.
    ///
    /// ```swift
    /// let audit: AuditTrail? = try await req.requestScope?.getIfBound(AuditTrail.self)
    /// ```
    public var requestScope: InjectorActor? {
        storage[ScopeKeeperKey.self]?.scope.injector
    }

    /// Resolves `type`, optionally qualified by `name`, in the request's scope.
    ///
    /// A ``Objection/Scope/scoped`` binding gives one instance per request, disposed when the
    /// response has been produced; everything else resolves as it would in the application's
    /// injector. The scope lives in `req.storage`, not in a task-local value: Vapor runs a route's
    /// handler in a task of its own, which does not see the middleware's task-local
    /// ``Objection/InjectorActor/current``, while the request object is the same all along the
    /// chain.
    ///
    /// ```swift
    /// app.post("checkout") { req in
    ///     try await req.resolve(CheckoutService.self).run()
    /// }
    /// let primary = try await req.resolve(Database.self, named: "primary")
    /// ```
    ///
    /// - Parameters:
    ///   - type: The bound type to resolve.
    ///   - name: The binding's name, or `nil` for the unnamed binding.
    /// - Returns: The instance the binding's scope dictates.
    /// - Throws: ``Objection/InjectionError/Code/scopeViolation`` when no
    ///   ``ObjectionScopeMiddleware`` wraps the route — logged (``Objection/LoggableError``) with the
    ///   request's logger,
    ///   and answered by Vapor as an opaque `500` (InjectionError+AbortError.swift) — and otherwise
    ///   what ``Objection/InjectorActor/get(_:named:)`` throws. Under the middleware, an error that
    ///   is not an `AbortError`, and any injection error, becomes an opaque `500`.
    nonisolated(nonsending) public func resolve<T: Sendable>(_ type: T.Type = T.self, named name: String? = nil)
        async throws -> T
    {
        guard let scope = requestScope else {
            let error = InjectionError(
                code: .scopeViolation,
                message: "No request scope to resolve '\(T.self)' in: add ObjectionScopeMiddleware to the "
                    + "application's or the route group's middleware, or wrap the handler in its scoped(_:)"
            )
            // Vapor answers it opaquely and logs only that reason: the detail is logged here.
            ObjectionScopeMiddleware.logFailure(error, of: self)
            throw error
        }
        return try await scope.get(type, named: name)
    }
}
