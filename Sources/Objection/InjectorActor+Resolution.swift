import Synchronization

/// The whole path of a key, and what the step asks of an injector.
///
/// ``resolve(_:as:below:)`` is the path a resolution takes when ``ResolutionDriver``'s step does
/// not find the key in this injector's table: it looks the key up through the hierarchy (or
/// answers a key that has none), and the driver takes the binding to its value. Here too:
/// whether a scoped instance would be captured, the frame a step enters, and whether a graph
/// can be built in place. The Architecture article walks through it.
extension InjectorActor {
    /// Looks `key` up and resolves it: the whole path, for a key that is not in this injector's
    /// table (a just-in-time type, a handle, a request value) or a caller that has no binding.
    @usableFromInline
    nonisolated(nonsending) func resolve<T: Sendable>(
        _ key: BindingKey,
        as type: T.Type,
        below parent: ResolutionFrame?
    ) async throws -> T {
        guard !isShutDown else { throw InjectionError.shutDown(isScope: isScope, key: key) }
        guard let binding = try binding(for: key, as: type) else {
            if let unbound = withoutBinding(key, as: type) { return unbound }
            throw InjectionError.missingBinding(key, requestedBy: parent)
        }
        return try await ResolutionDriver(self).resolve(binding, as: type, below: parent)
    }

    /// The built singleton bound to `key` in this injector's table, boxed as its cell holds it,
    /// read without suspending: the hit path of `get`, a plain function so that it allocates no
    /// asynchronous frame, and not generic, so that only the unboxing is specialised in the
    /// caller's module. `nil` sends `get` down the whole path, which gives the same answer when
    /// there is one (a miss looks the key up twice: passing the binding on cost the hit more;
    /// Benchmarks/README, "Why the code is shaped so").
    @usableFromInline
    nonisolated func builtSingleton(_ key: BindingKey) -> (any AnyObject & Sendable)? {
        guard !isShutDown else { return nil }
        return table.unretainedBinding(for: key)?._withUnsafeGuaranteedRef { binding in
            guard binding.lifetime.staysBuilt, ObjectIdentifier(binding.key.type) == ObjectIdentifier(key.type)
            else { return nil }
            return binding.lifetime.cell?.builtBox()
        }
    }

    /// Like resolving `key`, but `nil` when `key` itself is unbound: the shared body of both
    /// `getIfBound`s.
    nonisolated(nonsending) func resolveIfBound<T: Sendable>(
        _ key: BindingKey,
        as type: T.Type,
        below parent: ResolutionFrame?
    ) async throws -> T? {
        guard !isShutDown else { throw InjectionError.shutDown(isScope: isScope, key: key) }
        // Bound means what `get` can resolve: a binding, a just-in-time type, a handle or a
        // request value.
        guard let binding = try binding(for: key, as: type) else { return withoutBinding(key, as: type) }
        // A value request scopes supply, in a scope that does not: unbound here.
        if binding.isSuppliedByScope, nearestScope != nil, requestValue(for: key, as: type) == nil { return nil }
        return try await ResolutionDriver(self).resolve(binding, as: type, below: parent)
    }

    /// What this injector answers for `key` without a binding: a handle (`Factory<T>`,
    /// `Lazy<T>`, ``ObjectFactory``) — as itself, or wrapped for a ``Named`` parameter over
    /// `key` (`Named<Lazy<Pool>, Primary>`) — or a value of the nearest request scope.
    nonisolated func withoutBinding<T: Sendable>(_ key: BindingKey, as type: T.Type) -> T? {
        guard let handle = handle(for: key) else { return requestValue(for: key, as: type) }
        return handle as? T ?? (type as? any NamedDependency.Type)?.wrapping(handle) as? T
    }

    /// Whether a scoped instance resolved below `parent` would be captured by a singleton: the
    /// nearest singleton on the path belongs to an injector that outlives the request (anything
    /// but a request scope itself).
    nonisolated func isCaptive(below parent: ResolutionFrame?) -> Bool {
        guard let singleton = parent?.enclosingSingleton else { return false }
        return !owner(of: singleton).isScope
    }

    /// Starts the step for `binding`, refusing a cycle or a runaway depth.
    nonisolated func enter(
        _ binding: Binding,
        below parent: ResolutionFrame?
    ) throws(InjectionError) -> ResolutionFrame {
        try ResolutionFrame.enter(binding, below: parent, limit: maxResolutionDepth)
    }

    /// ``enter(_:below:)``, for a step: a refusal is the step's failure.
    nonisolated func enterStep(_ binding: Binding, below parent: ResolutionFrame?) throws(SynchronousStop)
        -> ResolutionFrame
    {
        do { return try enter(binding, below: parent) } catch { throw .failed(error) }
    }

    /// Whether the graph below `binding` can be built right now with its synchronous recipe, in
    /// plain function calls: the plan of the table that declares it approved it, it stays within
    /// the depth limit, and the singletons it reads are built.
    ///
    /// A binding inherited from an ancestor qualifies too, which is what keeps a request scope
    /// with its own values fast: its dependencies are then looked up through this injector's
    /// table, so the request's values win, and anything the plan did not foresee (an override
    /// that suspends, a singleton not built yet) makes the graph give way
    /// (``SynchronousStop/mustSuspend``), and the step builds it suspending.
    nonisolated func canBuildSynchronously(_ binding: Binding, below parent: ResolutionFrame?) -> Bool {
        binding.isSynchronous && (parent?.depth ?? 0) + binding.synchronousDepth <= maxResolutionDepth
            && frontierIsBuilt(binding)
    }

    /// Whether every cached binding a synchronous build of `binding` reads is built, in the
    /// table that declares `binding`.
    nonisolated func frontierIsBuilt(_ binding: Binding) -> Bool {
        guard !binding.frontier.isEmpty else { return true }
        // Cached only while the injector that owns them runs: its shutdown empties them.
        if binding.frontierStaysBuilt.load(ordering: .relaxed), !owner(of: binding).isShutDown { return true }
        guard let declaring = injector(owningTable: binding.tableID)?.table else { return false }
        var onlySingletons = true
        for index in binding.frontier {
            let dependency = declaring.bindings[index]
            guard isBuilt(dependency) else { return false }
            onlySingletons = onlySingletons && dependency.lifetime.staysBuilt
        }
        if onlySingletons { binding.frontierStaysBuilt.store(true, ordering: .relaxed) }
        return true
    }

    /// Whether the cell this injector would read `binding`'s value from is built: a singleton's
    /// own, or a scoped binding's slot in the nearest request scope (other bindings have none).
    nonisolated func isBuilt(_ binding: Binding) -> Bool {
        if let cell = binding.lifetime.cell { return cell.isBuilt }
        return binding.lifetime.isPerRequest && nearestScope?.slot(for: binding)?.isBuilt == true
    }
}
