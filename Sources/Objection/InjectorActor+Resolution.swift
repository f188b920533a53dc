import Synchronization

/// The path of every `get`: key → binding → lifetime → cache → recipe → value.
///
/// ``resolve(_:as:below:)-(BindingKey,_,_)`` finds the binding; ``resolve(_:as:below:)-(Binding,_,_)``
/// reads a built singleton at once and otherwise sends the binding to its lifetime: singletons
/// (`InjectorActor+Singletons.swift`), scoped instances (`InjectorActor+ScopedInstances.swift`),
/// custom scopes and transients (below). The Architecture article walks through it.
extension InjectorActor {
    /// Looks `key` up and resolves it: the shared start of `get` and ``Resolver/get(_:named:)``.
    @inlinable
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
        return try await resolve(binding, as: type, below: parent)
    }

    /// The built singleton bound to `key` in this injector's table, read without suspending: the
    /// hit path of `get`, a plain function so that it allocates no asynchronous frame. `nil`
    /// sends `get` down the whole path, which gives the same answer when there is one; a miss
    /// therefore looks the key up twice, once here and once in `immediateResolution`. Both ways
    /// of saving that second look-up were measured and cost the hit more than the look-up costs a
    /// miss: passing the binding found on made the hit 30 ns slower, and letting
    /// `value(for:as:below:)` answer the hit itself (its parent step read lazily) took it from 27
    /// to 51 ns (objection-compare, case 2).
    @inlinable
    nonisolated func builtSingleton<T: Sendable>(_ key: BindingKey, as type: T.Type) -> T? {
        guard !isShutDown else { return nil }
        return table.unretainedBinding(for: key)?._withUnsafeGuaranteedRef { $0.builtSingleton(as: type) }
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
        return try await resolve(binding, as: type, below: parent)
    }

    /// What this injector answers for `key` without a binding: a handle (`Factory<T>`,
    /// `Lazy<T>`, ``ObjectFactory``) or a value of the nearest request scope.
    @usableFromInline
    nonisolated func withoutBinding<T: Sendable>(_ key: BindingKey, as type: T.Type) -> T? {
        handle(type, named: key.name) ?? requestValue(for: key, as: type)
    }

    /// Produces `binding`'s value as its lifetime dictates: a singleton in the injector that
    /// declares it, a scoped instance in the nearest request scope, a transient right here.
    @inlinable
    nonisolated(nonsending) func resolve<T: Sendable>(
        _ binding: Binding,
        as type: T.Type,
        below parent: ResolutionFrame?
    ) async throws -> T {
        // The hot path: a built singleton, read without touching anything else.
        if let value = binding.builtSingleton(as: type) { return value }
        guard let producer = binding.producer(as: type) else {
            // A named autowired parameter asks for its binding's value wrapped in `Named`.
            if let named = try await resolveNamed(binding, as: type, below: parent) { return named }
            throw InjectionError.typeMismatch(
                binding.key,
                produced: binding.producer.producedType,
                path: (parent?.keys ?? []) + [binding.key]
            )
        }
        switch binding.scope.kind {
        case .singleton:
            return try await resolveSingleton(binding, producer: producer, below: parent)
        case .scoped:
            return try await resolveScoped(binding, as: type, producer: producer, below: parent)
        case .custom:
            if let value = binding.customCache?.cachedInstance(as: type) { return value }
            let owner = owner(of: binding)
            let frame = try enter(binding, below: parent)
            let value = try await observingConstruction(of: binding, at: frame) { frame in
                try await producer.run(in: owner, frame: frame, for: binding)
            }
            binding.customCache?.keep(value)
            return value
        case .transient:
            return try await resolveTransient(binding, producer: producer, below: parent)
        }
    }

    /// Builds a transient: with plain function calls when it can
    /// (``transientWithoutSuspending(_:producer:below:)``), else step by step.
    @inlinable
    nonisolated(nonsending) func resolveTransient<T: Sendable>(
        _ binding: Binding,
        producer: Recipe<T>,
        below parent: ResolutionFrame?
    ) async throws -> T {
        if let value = try transientWithoutSuspending(binding, producer: producer, below: parent) { return value }
        return try await buildStepByStep(binding, producer: producer, below: parent)
    }

    /// Builds a transient step by step: its recipe runs in a frame of its own below `parent`.
    @inlinable
    nonisolated(nonsending) func buildStepByStep<T: Sendable>(
        _ binding: Binding,
        producer: Recipe<T>,
        below parent: ResolutionFrame?
    ) async throws -> T {
        let frame = try enter(binding, below: parent)
        return try await producer.run(in: self, frame: frame, for: binding)
    }

    /// A transient of `binding` built without suspending, below `parent`: an instance, a graph
    /// the plan allows to build with plain function calls, or a provider closure that does not
    /// suspend. `nil` when it must be built step by step (or a frontier cell was emptied
    /// meanwhile), which the asynchronous path then does.
    @inlinable
    nonisolated func transientWithoutSuspending<T: Sendable>(
        _ binding: Binding,
        producer: Recipe<T>,
        below parent: ResolutionFrame?
    ) throws -> T? {
        // An instance's recipe returns its value and never stops.
        if producer.kind == .instance, producer.isSynchronous {
            return try? producer.synchronous(SynchronousResolver(injector: self, reports: nil), binding)
        }
        if canBuildSynchronously(binding, below: parent),
            !binding.synchronousReadsScoped || !isCaptive(below: parent)
        {
            let built = try attemptSynchronously(in: self, below: parent) { resolver throws(SynchronousStop) in
                try producer.synchronous(resolver, binding)
            }
            if let built { return built }
        }
        if let provider = producer.synchronousProvider {
            // A provider that does not suspend cannot resolve anything while it runs (the
            // Resolver's methods suspend): no cycle can pass through its step and nothing nests
            // below it, so it needs no frame, only the depth check. A resolver it keeps starts
            // new paths, as any resolver kept past its provider's return does.
            _ = try ResolutionFrame.depth(of: binding, below: parent, limit: maxResolutionDepth)
            return try provider(Resolver(injector: self, frame: nil))
        }
        return nil
    }

    /// The value of `key` below `parent`: the shared path of ``get(_:named:)`` and
    /// ``Resolver/get(_:named:)``. A built singleton, or a transient that builds without
    /// suspending, is answered by plain function calls, with no asynchronous frame below this one;
    /// a transient that must suspend goes straight to its step; anything else takes the whole
    /// path (``resolve(_:as:below:)-(BindingKey,_,_)``).
    @inlinable
    nonisolated(nonsending) func value<T: Sendable>(
        for key: BindingKey,
        as type: T.Type,
        below parent: ResolutionFrame?
    ) async throws -> T {
        switch try immediateResolution(of: key, as: type, below: parent) {
        case .value(let value): return value
        case .stepByStep(let binding, let producer):
            return try await buildStepByStep(binding, producer: producer, below: parent)
        case .inFlight(let construction):
            // `nil`: the construction was given up, and the whole path below claims it again.
            if let value = try await joined(construction, as: type) { return value }
        case .elsewhere: break
        }
        return try await resolve(key, as: type, below: parent)
    }

    /// The value of the singleton `construction` builds, for a caller outside any construction,
    /// or `nil` when it was given up. Not inlinable, so that `get`, which inlines
    /// ``value(for:as:below:)``, stays small enough to be inlined itself.
    ///
    /// It awaits the outcome itself, and keeps nothing but the outcome across the wait: each
    /// asynchronous frame on a waiter's way, and each byte of it, is taken from the waiter's task
    /// allocator, paid by every waiter of a stampede.
    @usableFromInline
    nonisolated(nonsending) func joined<T: Sendable>(
        _ construction: InFlightConstruction,
        as type: T.Type
    ) async throws -> T? {
        guard let box = try await construction.outcome.value() else { return nil }
        return CellValue.unwrap(box, as: T.self)
    }

    /// What this injector's table answers for `key` without suspending, below `parent`: a built
    /// singleton, or a transient built by ``transientWithoutSuspending(_:producer:below:)``; a
    /// transient that must suspend is handed back with its recipe, so that its synchronous
    /// attempt is not made twice.
    @inlinable
    nonisolated func immediateResolution<T: Sendable>(
        of key: BindingKey,
        as type: T.Type,
        below parent: ResolutionFrame?
    ) throws -> ImmediateResolution<T> {
        guard !isShutDown, let found = table.unretainedBinding(for: key) else { return .elsewhere }
        return try found._withUnsafeGuaranteedRef { binding in
            if binding.scope.kind == .singleton {
                // A caller outside any construction joins a singleton in flight here: with no
                // step above it, it can close no cycle and go no deeper, so it needs no step of
                // its own — what makes each of a stampede's waiters cheap.
                if parent == nil { return binding.builtOrInFlight(as: type) }
                return binding.builtSingleton(as: type).map(ImmediateResolution.value) ?? .elsewhere
            }
            guard binding.scope.kind == .transient, let producer = binding.producer(as: type) else { return .elsewhere }
            if let value = try transientWithoutSuspending(binding, producer: producer, below: parent) {
                return .value(value)
            }
            return .stepByStep(binding, producer)
        }
    }

    /// Whether a scoped instance resolved below `parent` would be captured by a singleton: the
    /// nearest singleton on the path belongs to an injector that outlives the request (anything
    /// but a request scope itself).
    @usableFromInline
    nonisolated func isCaptive(below parent: ResolutionFrame?) -> Bool {
        guard let singleton = parent?.enclosingSingleton else { return false }
        return !owner(of: singleton).isScope
    }

    /// Starts the step for `binding`, refusing a cycle or a runaway depth.
    @usableFromInline
    nonisolated func enter(
        _ binding: Binding,
        below parent: ResolutionFrame?
    ) throws(InjectionError) -> ResolutionFrame {
        try ResolutionFrame.enter(binding, below: parent, limit: maxResolutionDepth)
    }

    /// Whether the graph below `binding` can be built right now with its synchronous recipe, in
    /// plain function calls: the plan of the table that declares it approved it, it stays within
    /// the depth limit, and the singletons it reads are built.
    ///
    /// A binding inherited from an ancestor qualifies too, which is what keeps a request scope
    /// with its own values fast: its dependencies are then looked up through this injector's
    /// table, so the request's values win, and anything the plan did not foresee (an override
    /// that suspends, a singleton not built yet) makes ``SynchronousResolver`` fall back to the
    /// asynchronous path.
    @inlinable
    nonisolated func canBuildSynchronously(_ binding: Binding, below parent: ResolutionFrame?) -> Bool {
        binding.isSynchronous && (parent?.depth ?? 0) + binding.synchronousDepth <= maxResolutionDepth
            && frontierIsBuilt(binding)
    }

    /// Whether every cached binding a synchronous build of `binding` reads is built, in the
    /// table that declares `binding`.
    @usableFromInline
    nonisolated func frontierIsBuilt(_ binding: Binding) -> Bool {
        guard !binding.frontier.isEmpty else { return true }
        // Cached only while the injector that owns them runs: its shutdown empties them.
        if binding.frontierStaysBuilt.load(ordering: .relaxed), !owner(of: binding).isShutDown { return true }
        var declaring: BindingTable? = table
        while let candidate = declaring, candidate.id != binding.tableID { declaring = candidate.parent }
        guard let declaring else { return false }
        var onlySingletons = true
        for index in binding.frontier {
            let dependency = declaring.bindings[index]
            guard isBuilt(dependency) else { return false }
            onlySingletons = onlySingletons && dependency.scope.kind == .singleton
        }
        if onlySingletons { binding.frontierStaysBuilt.store(true, ordering: .relaxed) }
        return true
    }

    /// Whether the cached instance of `binding` that this injector would use is built.
    nonisolated func isBuilt(_ binding: Binding) -> Bool {
        switch binding.scope.kind {
        case .singleton: binding.cell?.isBuilt == true
        case .scoped: nearestScope?.slot(for: binding)?.isBuilt == true
        case .transient, .custom: false
        }
    }
}
