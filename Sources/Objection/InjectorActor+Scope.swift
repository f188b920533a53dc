/// Request scopes.
extension InjectorActor {
    /// Runs `body` in a new request scope, and ends the scope when `body` returns or throws.
    ///
    /// The scope is a child injector that holds one instance of each ``Scope/scoped`` binding it
    /// resolves, built by the first task of the request that needs it (so it sees the request's
    /// task-local values). Inside `body` the scope is the task-local ``current`` injector. When
    /// `body` finishes, the scope disposes what it built, in reverse order of construction, and
    /// releases its caches; using it afterwards throws ``InjectionError/Code/shutDown``. Nested
    /// scopes are separate.
    ///
    /// Opening a scope with modules builds a binding table for them, which costs microseconds per
    /// request; to bind the request's own values, ``withScope(values:_:)`` is the cheap way.
    ///
    /// ```swift
    /// let response = try await injector.withScope(modules: [RequestModule(request)]) { request in
    ///     try await request.get(RequestHandler.self).handle()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - modules: The request's own bindings, applied over this injector's; they may override
    ///     any key.
    ///   - body: The work to do in the scope. It runs on the caller's executor.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws. If `body` succeeds but a disposal fails, an
    ///   ``InjectionError/Code/disposalFailed`` error. ``InjectionError/Code/shutDown`` if this
    ///   injector has been shut down.
    @inlinable
    public nonisolated(nonsending) func withScope<T>(
        modules: [any Module] = [],
        _ body: nonisolated(nonsending) (InjectorActor) async throws -> T
    ) async throws -> T {
        try checkNotShutDown()
        let scope =
            modules.isEmpty ? InjectorActor(scopeOf: self, values: ScopeValues()) : try await scope(adding: modules)
        return try await serve(in: scope, body)
    }

    /// Runs `body` in a new request scope that answers with the request's own `values`, and ends
    /// the scope when `body` returns or throws: the request path of a server.
    ///
    /// The injector's part runs on the caller's executor: opening the scope allocates its storage
    /// (sized once per injector, not per request) and builds no table, and resolving in it hops
    /// nowhere unless a provider does. A disposal runs where its own code says: `dispose()` and
    /// `onDispose` hooks are plain `async` functions, so a scope that disposes something switches
    /// to the global executor for it. Otherwise it behaves as ``withScope(modules:_:)``.
    ///
    /// ```swift
    /// try await injector.withScope(values: { request in
    ///     request.bind(RequestID.self, to: id)
    ///     request.bind(AuthenticatedUser.self, to: user)
    /// }) { scope in
    ///     try await scope.get(CheckoutHandler.self).handle()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - values: Binds the request's values (see ``ScopeValues``).
    ///   - body: The work to do in the scope. It runs on the caller's executor.
    /// - Returns: What `body` returns.
    /// - Throws: ``InjectionError/Code/invalidConfiguration`` for a value whose key this injector
    ///   binds other than with ``BindingBuilder/suppliedByScope()``; otherwise like
    ///   ``withScope(modules:_:)``.
    @inlinable
    public nonisolated(nonsending) func withScope<T>(
        values: (inout ScopeValues) throws -> Void,
        _ body: nonisolated(nonsending) (InjectorActor) async throws -> T
    ) async throws -> T {
        try checkNotShutDown()
        return try await serve(in: requestScope(binding: values), body)
    }

    /// A request scope of this injector with its own `modules` over this injector's bindings.
    @usableFromInline
    nonisolated(nonsending) func scope(adding modules: [any Module]) async throws -> InjectorActor {
        try await InjectorActor(
            modules: modules, parent: self, isScope: true, stage: stage, maxResolutionDepth: maxResolutionDepth)
    }

    /// A request scope of this injector with the values `values` binds: refused when they would
    /// replace this injector's own bindings (those not declared ``BindingBuilder/suppliedByScope()``).
    @usableFromInline
    nonisolated func requestScope(binding values: (inout ScopeValues) throws -> Void) throws -> InjectorActor {
        var bound = ScopeValues()
        try values(&bound)
        let replaced = bound.keys { !acceptsScopeValue(for: $0) }
        guard replaced.isEmpty else { throw InjectionError.requestValuesReplaceBindings(replaced) }
        return InjectorActor(scopeOf: self, values: bound)
    }

    /// Counts `scope` as open for the drains of the injectors above it: `false`, counting
    /// nothing, when one of them is draining and the caller is not inside a request in flight
    /// there. A plain call, not an asynchronous one: it is on every request's path.
    nonisolated func admits(_ scope: InjectorActor) -> Bool {
        scope.countScopeOpening(isNested: { !Self.callerScopes(countedIn: $0).isEmpty })
    }

    /// Ends `scope`, which ``admits(_:)`` refused, and answers the error its opener throws:
    /// ``InjectionError/Code/shutDown``, the injector draining.
    @usableFromInline
    nonisolated(nonsending) func refuse(_ scope: InjectorActor) async -> InjectionError {
        // A scope with modules may have built its eager bindings already: end it.
        _ = await scope.end(after: .failed(InjectionError.draining))
        return InjectionError.draining
    }

    /// Runs `body` in a new request scope that `around` wraps: the way to give a scope a resource
    /// that is only lent inside a closure, such as a database transaction.
    ///
    /// `around` receives `enter`, and must call it exactly once, from inside the closure that
    /// lends the resource, binding the request's values (the resource among them) as
    /// ``withScope(values:_:)`` does. `enter` runs `body` in the scope and ends the scope —
    /// disposing its instances, each told how `body` ended (``ScopeOutcome``) — before it
    /// returns, so the scope's instances are done with the resource before its lender commits,
    /// rolls back or takes it back. If `body` throws, `enter` rethrows it, so the lender sees the
    /// failure.
    ///
    /// ```swift
    /// let link = try await injector.withScope(around: { enter in
    ///     try await client.withTransaction(logger: logger) { connection in
    ///         try await enter { $0.bind(PostgresConnection.self, to: connection) }
    ///     }
    /// }) { scope in
    ///     try await scope.get(LinkService.self).shorten(url)
    /// }
    /// ```
    ///
    /// Errors reach the caller as `body` threw them: when `body` fails, the caller gets `body`'s
    /// error even if the lender wraps it in an error of its own. When `body` succeeds and the
    /// lender then fails (a commit that fails), the caller gets the lender's error — after the
    /// scope's instances were disposed with ``ScopeOutcome/succeeded``: the outcome is the
    /// body's, not the transaction's.
    ///
    /// `around` runs on the caller's executor, and so must the lender's closure: a lender whose
    /// method is `nonisolated(nonsending)` or takes an `isolation` parameter (postgres-nio's
    /// `withTransaction` does) works; one that requires a `@Sendable` closure does not compile
    /// here, as `enter` is not `Sendable`.
    ///
    /// - Parameters:
    ///   - around: Lends the scope its resources and calls `enter` inside.
    ///   - body: The work to do in the scope. It runs on the caller's executor.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws; otherwise what `around` throws;
    ///   ``InjectionError/Code/scopeNotEntered`` when `around` returned without calling `enter`,
    ///   or from a second call of `enter` (a lender that retries gets it, and rethrows it or not);
    ///   otherwise like ``withScope(values:_:)``.
    @inlinable
    public nonisolated(nonsending) func withScope<T>(
        // Escaping only so that `enter` may capture `body`; it is not kept past the call.
        around:
            nonisolated(nonsending) @escaping (
                _ enter: nonisolated(nonsending) (_ values: (inout ScopeValues) throws -> Void) async throws -> Void
            ) async throws -> Void,
        _ body: nonisolated(nonsending) (InjectorActor) async throws -> T
    ) async throws -> T {
        try checkNotShutDown()
        // A `T?` and an error rather than a `Result<T, any Error>?`: one generic type fewer where
        // this code is not specialised (the library's own callers).
        var value: T?
        var bodyError: (any Error)?
        var entries = 0
        do {
            try await around { values in
                entries += 1
                guard entries == 1 else { throw InjectionError.scopeNotEntered(times: entries) }
                do {
                    value = try await withScope(values: values, body)
                } catch {
                    bodyError = error
                    throw error
                }
            }
        } catch {
            // The body's own error, not the lender's wrapping of it.
            throw bodyError ?? error
        }
        // A lender that swallowed the body's error does not turn it into a success.
        if let bodyError { throw bodyError }
        guard let value else { throw InjectionError.scopeNotEntered(times: 0) }
        return value
    }

    /// Runs `body` in `scope` as the task's current injector, then ends the scope, telling its
    /// disposals how `body` ended. Inlinable, so that `body`'s value is handled as the caller's own
    /// type: unspecialised, each request looked up the metadata of `T` and copied the value
    /// through its witnesses (Benchmarks/README, "Inlining marks"). Opening and ending are plain
    /// calls into the library, as ``openScope(values:)`` and ``OpenScope/end(_:)`` make them.
    @inlinable
    nonisolated(nonsending) func serve<T>(
        in scope: InjectorActor,
        _ body: nonisolated(nonsending) (InjectorActor) async throws -> T
    ) async throws -> T {
        guard opening(scope) else { throw await refuse(scope) }
        let value: T
        do {
            value = try await InjectorActor.withCurrent(scope) { try await body(scope) }
        } catch {
            // The body's error wins over a disposal's, which the observer still hears of.
            _ = await scope.close(after: .failed(error))
            throw error
        }
        if let disposalFailure = await scope.close(after: .succeeded) { throw disposalFailure }
        return value
    }

    /// Begins serving `scope`, a request scope of this injector: counts it for the drains of the
    /// injectors above (``admits(_:)``) and tells the observer, if it asked (a stored flag: no
    /// other observer pays for this). `false` when refused: end it with ``refuse(_:)``. How
    /// ``withScope(values:_:)`` and ``openScope(values:)`` alike begin; a plain call, not an
    /// asynchronous one (it is on every request's path).
    @usableFromInline
    nonisolated func opening(_ scope: InjectorActor) -> Bool {
        guard admits(scope) else { return false }
        if observesScopes { observing?.observer.scopeOpened() }
        return true
    }

    /// Ends this request scope after `outcome`, tells the observer (the scope's is its opener's)
    /// and stops counting the scope for the drains: the end of ``withScope(values:_:)`` and of
    /// ``OpenScope/end(_:)`` alike. Answers the disposals' failure, if any.
    @usableFromInline
    nonisolated(nonsending) func close(after outcome: ScopeOutcome) async -> InjectionError? {
        defer { countScopeEnd() }
        let failure = await end(after: outcome)
        if observesScopes { observing?.observer.scopeEnded(outcome) }
        return failure
    }

    /// The value bound to `key` by the opener of the nearest request scope, else of an enclosing
    /// one: a nested scope holds its request's values too (see ``ScopeValues/inheriting(_:)``).
    nonisolated func requestValue<T: Sendable>(for key: BindingKey, as type: T.Type) -> T? {
        try? nearestScope?.request?.value(for: key, as: type)
    }
}
