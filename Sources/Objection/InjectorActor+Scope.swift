/// Request scopes.
extension InjectorActor {
    /// Runs `body` in a new request scope, and ends the scope when `body` returns or throws.
    ///
    /// The scope is a child injector that holds one instance of each ``Scope/scoped`` binding it
    /// resolves, built by the first task of the request that needs it (so it sees the request's
    /// task-local values). Inside `body` the scope is the task-local ``current`` injector. When `body` finishes,
    /// the scope disposes what it built, in reverse order of construction, and releases its
    /// caches; using it afterwards throws ``InjectionError/Code/shutDown``. Scopes are cheap: one
    /// opened without modules shares this injector's binding table. Nested scopes are separate.
    ///
    /// ```swift
    /// let response = try await injector.withScope(modules: [RequestModule(request)]) { request in
    ///     try await request.get(RequestHandler.self).handle()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - modules: The request's own bindings (its id, the authenticated user, …), applied over
    ///     this injector's.
    ///   - body: The work to do in the scope.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws. If `body` succeeds but a disposal fails, an
    ///   ``InjectionError/Code/disposalFailed`` error. ``InjectionError/Code/shutDown`` if this
    ///   injector has been shut down.
    public nonisolated(nonsending) func withScope<T>(
        modules: [any Module] = [],
        _ body: (InjectorActor) async throws -> T
    ) async throws -> T {
        try checkNotShutDown()
        let scope =
            modules.isEmpty
            ? InjectorActor(scopeOf: self)
            : try await InjectorActor(
                modules: modules, parent: self, isScope: true, stage: stage, maxResolutionDepth: maxResolutionDepth)
        let result: Result<T, any Error>
        do {
            result = .success(try await InjectorActor.withCurrent(scope) { try await body(scope) })
        } catch {
            result = .failure(error)
        }
        let disposalFailure = await scope.shutdown()
        let value = try result.get()
        if let disposalFailure { throw disposalFailure }
        return value
    }
}
