import Synchronization

/// The path of every `get`: key → binding → one step → value, or a stop the driver acts on.
///
/// ``resolve(_:as:below:)-(BindingKey,_,_)`` finds the binding. The step
/// (``SynchronousResolver/step(_:producer:_:)``, the one place that decides by lifetime) reads or
/// builds the value without suspending, or says where to suspend; the driver
/// (``proceed(after:with:producer:below:)``) waits or builds there, and steps again. The
/// Architecture article walks through it.
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
        return try await resolve(binding, as: type, below: parent)
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
        return try await resolve(binding, as: type, below: parent)
    }

    /// What this injector answers for `key` without a binding: a handle (`Factory<T>`,
    /// `Lazy<T>`, ``ObjectFactory``) — as itself, or wrapped for a ``Named`` parameter over
    /// `key` (`Named<Lazy<Pool>, Primary>`) — or a value of the nearest request scope.
    nonisolated func withoutBinding<T: Sendable>(_ key: BindingKey, as type: T.Type) -> T? {
        guard let handle = handle(for: key) else { return requestValue(for: key, as: type) }
        return handle as? T ?? (type as? any NamedDependency.Type)?.wrapping(handle) as? T
    }

    /// Produces `binding`'s value: the step, then the driver if the step stopped.
    nonisolated(nonsending) func resolve<T: Sendable>(
        _ binding: Binding,
        as type: T.Type,
        below parent: ResolutionFrame?
    ) async throws -> T {
        // The hot path: a built singleton, read without touching anything else.
        if let value = binding.builtSingleton(as: type) { return value }
        guard let producer = binding.producer(as: type) else {
            return try await resolveNamed(binding, as: type, below: parent)
        }
        var stop: DriverStop?
        if let value = attempt(binding, producer: producer, below: parent, stop: &stop) { return value }
        return try await act(on: stop, with: binding, producer: producer, below: parent)
    }

    /// Produces `binding`'s value with `producer` instead of its own recipe: a call with runtime
    /// arguments (its recipe given them) and a ``Lazy`` handle (its binding's recipe is a
    /// `Recipe<T>` under a `Lazy<T>` key). The same step and driver as
    /// ``resolve(_:as:below:)-(Binding,_,_)``.
    nonisolated(nonsending) func resolve<T: Sendable>(
        _ binding: Binding,
        producer: Recipe<T>,
        below parent: ResolutionFrame?
    ) async throws -> T {
        var stop: DriverStop?
        if let value = attempt(binding, producer: producer, below: parent, stop: &stop) { return value }
        return try await act(on: stop, with: binding, producer: producer, below: parent)
    }

    /// The value of `key` below `parent`: the shared path of ``get(_:named:)`` and
    /// ``Resolver/get(_:named:)``. A key of this injector's table is stepped at once, by plain
    /// function calls, with no asynchronous frame unless the step stopped
    /// (``afterStep(_:of:for:as:below:)``); anything else takes the whole path.
    @inlinable
    nonisolated(nonsending) func value<T: Sendable>(
        for key: BindingKey,
        as type: T.Type,
        below parent: ResolutionFrame?
    ) async throws -> T {
        var stop: DriverStop?
        var found: Binding?
        if let value = step(key, as: type, below: parent, found: &found, stop: &stop) { return value }
        return try await afterStep(consume stop, of: found, for: key, as: type, below: parent)
    }

    /// The step of `key`'s binding in this injector's table, without suspending: the value, or
    /// `nil` with the binding in `found` and the driver's stop in `stop` — or no stop, when the
    /// whole path must answer (no binding in the table, a `Named` parameter, a type mismatch, a
    /// shut-down injector).
    @inlinable
    nonisolated func step<T: Sendable>(
        _ key: BindingKey,
        as type: T.Type,
        below parent: ResolutionFrame?,
        found: inout Binding?,
        stop: inout DriverStop?
    ) -> T? {
        guard !isShutDown, let binding = table.binding(for: key) else { return nil }
        found = binding
        guard let producer = binding.producer(as: type) else { return nil }
        return attempt(binding, producer: producer, below: parent, stop: &stop)
    }

    /// What ``value(for:as:below:)`` does when the step did not give the value: acts on its stop,
    /// or takes the whole path when there is none. Its own function, so that the step's value,
    /// the common case, needs no asynchronous frame (Benchmarks/README, "Why the code is shaped
    /// so"); whether it is inlined is the optimiser's call (keeping it out measured nothing,
    /// "Inlining marks").
    @inlinable
    nonisolated(nonsending) func afterStep<T: Sendable>(
        _ stop: consuming DriverStop?,
        of found: Binding?,
        for key: BindingKey,
        as type: T.Type,
        below parent: ResolutionFrame?
    ) async throws -> T {
        guard stop != nil, let binding = found, let producer = binding.producer(as: type) else {
            return try await resolve(key, as: type, below: parent)
        }
        return try await act(on: consume stop, with: binding, producer: producer, below: parent)
    }

    /// Acts on the step's stop: a transient built step by step — the driver's cheapest case — is
    /// run here, without the driver's frame (one task allocation less per level of a graph of
    /// closure providers; Benchmarks/README, "Why the code is shaped so");
    /// anything else goes to ``proceed(after:with:producer:below:)``.
    @inlinable
    nonisolated(nonsending) func act<T: Sendable>(
        on stop: consuming DriverStop?,
        with binding: Binding,
        producer: Recipe<T>,
        below parent: ResolutionFrame?
    ) async throws -> T {
        switch consume stop {
        case .run(let frame)?:
            return try await producer.run(in: self, frame: frame, for: binding)
        case let stop:
            return try await proceed(after: stop, with: binding, producer: producer, below: parent)
        }
    }

    /// The step of `binding` below `parent`, for the driver: the value, or what the driver must
    /// do. The resolver notes the constructions built in place for the observer, if there is one
    /// (see ``ConstructionReports``), and tells it of them when the step returns; an observer of
    /// failures only hears of a failure as it happens.
    @inlinable
    nonisolated func attempt<T: Sendable>(
        _ binding: Binding,
        producer: Recipe<T>,
        below parent: ResolutionFrame?,
        stop: inout DriverStop?
    ) -> T? {
        let stepped = withUnsafeMutablePointer(to: &stop) { slot in
            let mode = StepMode.mayWait(StepDriver(parent: parent, suspension: slot))
            guard let observing else {
                return Result { () throws(SynchronousStop) in
                    try SynchronousResolver(injector: self, reports: nil).step(binding, producer: producer, mode)
                }
            }
            return reportingStep(binding, producer: producer, mode, below: parent, to: observing)
        }
        switch stepped {
        case .success(let value): return value
        case .failure(.failed(let error)): stop = .failed(error)
        case .failure(.suspended): if stop != nil { return nil }
        case .failure(.mustSuspend): break
        }
        // A step asked by the driver never gives way (see `StepMode`): a bug, reported as such.
        if stop == nil { stop = .failed(InjectionError.gaveWay(binding.key, requestedBy: parent)) }
        return nil
    }

    /// The step of ``attempt(_:producer:below:stop:)`` for `observing`: the constructions it
    /// builds in place are noted on this call's stack, named as children of the one `parent` runs
    /// inside, and delivered when it returns.
    @inlinable
    nonisolated func reportingStep<T: Sendable>(
        _ binding: Binding,
        producer: Recipe<T>,
        _ mode: StepMode,
        below parent: ResolutionFrame?,
        to observing: ObserverReference
    ) -> Result<T, SynchronousStop> {
        var reports = ConstructionReports(below: parent?.observedParent, to: observing)
        defer { reports.deliver() }
        return withUnsafeMutablePointer(to: &reports) { reports in
            Result { () throws(SynchronousStop) in
                try SynchronousResolver(injector: self, reports: reports).step(binding, producer: producer, mode)
            }
        }
    }

    /// The driver: acts on the step's stop — waits for a construction in flight, or builds the
    /// value suspending — and steps again after a wait that found the construction given up.
    /// Inlinable, so that its frame is part of its caller's: as a call of its own, each waiter
    /// of a stampede allocated once more (Benchmarks/README, "Inlining marks"). The stop is
    /// moved, never copied: a copy of it retains each reference it holds (Benchmarks/README,
    /// "The stampede").
    @inlinable
    nonisolated(nonsending) func proceed<T: Sendable>(
        after first: consuming DriverStop?,
        with binding: Binding,
        producer: Recipe<T>,
        below parent: ResolutionFrame?
    ) async throws -> T {
        var next = first
        while let stop = next.take() {
            switch consume stop {
            case .failed(let error):
                throw error
            case .wait(let wait):
                // `nil`: the construction was given up; step again. A refreshable binding's first
                // value is read again too, so that a request scope pins its generation.
                if let box = try await wait.value(), !binding.changesOnRefresh {
                    return CellValue.unwrap(box, as: T.self)
                }
            case .run(let frame):
                return try await producer.run(in: self, frame: frame, for: binding)
            case .build(let pending):
                return try await buildCached(binding, producer: producer, pending)
            }
            if let value = attempt(binding, producer: producer, below: parent, stop: &next) { return value }
        }
        throw InjectionError.gaveWay(binding.key, requestedBy: parent)
    }

    /// Builds a cached instance suspending, telling the observer: a scoped one in its slot, by
    /// the one construction (``construct(_:producer:by:at:observed:in:as:)``), or a
    /// custom-scoped one, kept in its cache, which shares no construction with waiters.
    @usableFromInline
    nonisolated(nonsending) func buildCached<T: Sendable>(
        _ binding: Binding,
        producer: Recipe<T>,
        _ pending: PendingBuild
    ) async throws -> T {
        if let (slot, construction) = pending.claimed {
            return try await construct(
                binding, producer: producer, by: pending.injector, at: pending.frame,
                observed: startingConstruction(of: binding, at: pending.frame), in: slot, as: construction)
        }
        return try await observingConstruction(of: binding, at: pending.frame) { frame in
            let value = try await producer.run(in: pending.injector, frame: frame, for: binding)
            // A custom scope's construction is not waited for by shutdown: a value that comes
            // after shutdown took the disposals is refused, as every cache's (ConstructionPolicy.swift).
            guard pending.injector.keepsValues else {
                throw InjectionError.shutDown(isScope: pending.injector.isScope, key: binding.key)
            }
            binding.lifetime.customCache?.keep(value)
            return value
        }
    }

    /// `binding`'s value wrapped as `T`, when `T` is a ``Named`` over the binding's key (see
    /// ``Binding/named(_:as:)``); else a type mismatch.
    nonisolated(nonsending) func resolveNamed<T: Sendable>(
        _ binding: Binding,
        as type: T.Type,
        below parent: ResolutionFrame?
    ) async throws -> T {
        if binding.isNamed(type),
            let named = binding.named(
                try await binding.producer.resolve(in: self, binding: binding, below: parent), as: type)
        {
            return named
        }
        throw InjectionError.typeMismatch(
            binding.key,
            produced: binding.producer.producedType,
            path: (parent?.keys ?? []) + [binding.key]
        )
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
