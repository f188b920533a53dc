/// The path of every `get`: key → binding → scope cache → provider → value.
///
/// The fast paths — an instance, a built singleton, a transient graph that can be built without
/// suspending — are inlinable so that they are specialised for `T` in the caller's module. The
/// rest goes through ``ResolutionFrame``s, which name the path in errors and catch cycles.
extension InjectorActor {
    /// Looks `key` up and resolves it: the shared start of `get` and ``Resolver/get(_:named:)``.
    @inlinable
    nonisolated(nonsending) func resolve<T: Sendable>(
        _ key: BindingKey,
        as type: T.Type,
        parent: ResolutionFrame?,
        continuesTaskPath: Bool = false
    ) async throws -> T {
        guard !lifecycle.isShutDown else { throw InjectionError.shutDown(isScope: isScope, key: key) }
        guard let binding = try binding(for: key, as: type) else {
            if let handle = handle(type, named: key.name) { return handle }
            throw InjectionError.missingBinding(key, requestedBy: continuesTaskPath ? ResolutionFrame.active : parent)
        }
        return try await resolve(binding, as: type, parent: parent, continuesTaskPath: continuesTaskPath)
    }

    /// Like resolving `key`, but `nil` when `key` itself is unbound: the shared body of both
    /// `getIfBound`s.
    @inlinable
    nonisolated(nonsending) func resolveIfBound<T: Sendable>(
        _ key: BindingKey,
        as type: T.Type,
        parent: ResolutionFrame?,
        continuesTaskPath: Bool = false
    ) async throws -> T? {
        guard !lifecycle.isShutDown else { throw InjectionError.shutDown(isScope: isScope, key: key) }
        // Bound means what `get` can resolve: a binding, a just-in-time type, or a handle.
        guard let binding = try binding(for: key, as: type) else {
            return handle(type, named: key.name)
        }
        // A value request scopes supply, in a scope that does not: unbound here.
        if binding.isSuppliedByScope, nearestScope != nil { return nil }
        return try await resolve(binding, as: type, parent: parent, continuesTaskPath: continuesTaskPath)
    }

    /// Produces `binding`'s value as its scope dictates: a singleton in the injector that declares
    /// it, a scoped instance in the nearest request scope, a transient right here.
    ///
    /// - Parameters:
    ///   - parent: The step that asked, if it is known.
    ///   - continuesTaskPath: Whether a step running in this task (a provider that called the
    ///     injector directly) is the parent; read only when the slow path needs it.
    @inlinable
    nonisolated(nonsending) func resolve<T: Sendable>(
        _ binding: Binding,
        as type: T.Type,
        parent: ResolutionFrame?,
        continuesTaskPath: Bool = false
    ) async throws -> T {
        // The hot path: a built singleton, read without touching anything else.
        if binding.scope.kind == .singleton, binding.produces(type), let value = binding.cell?.value(as: type) {
            return value
        }
        guard let producer = binding.producer(as: type) else {
            // A named autowired parameter asks for its binding's value wrapped in `Named`.
            if let named = try await resolveNamed(
                binding, as: type, parent: parent, continuesTaskPath: continuesTaskPath)
            {
                return named
            }
            throw InjectionError.typeMismatch(
                binding.key,
                produced: binding.producer.producedType,
                path: (parent?.keys ?? []) + [binding.key]
            )
        }
        switch binding.scope.kind {
        case .singleton:
            let owner = owner(of: binding)
            let frame = try enter(binding, parent: parent, continuesTaskPath: continuesTaskPath)
            return try await owner.construct(binding, producer: producer, cell: binding.cell, frame: frame)
        case .scoped:
            let requester = continuesTaskPath ? ResolutionFrame.active : parent
            guard let scope = nearestScope, !isCaptive(below: requester) else {
                throw InjectionError.scopeViolation(binding.key, requestedBy: requester)
            }
            let cell = scope.scopedCells.cell(for: binding)
            if let value = cell.value(as: type) { return value }
            if let recipe = synchronousRecipe(binding, producer, below: parent) {
                do {
                    // The scope's own bindings build its instances, whoever asked (as on the
                    // asynchronous path).
                    return try SynchronousResolver(injector: scope).build(binding, recipe: recipe, in: cell, of: scope)
                } catch is SynchronousResolutionUnavailable {
                    // Another task of the request is building it, or the scope ended: see below.
                }
            }
            let frame = try enter(binding, parent: requester, continuesTaskPath: false)
            return try await scope.buildScoped(binding, producer: producer, cell: cell, frame: frame)
        case .custom:
            if let value = binding.customCache?.cachedInstance(as: type) { return value }
            let owner = owner(of: binding)
            let frame = try enter(binding, parent: parent, continuesTaskPath: continuesTaskPath)
            let value = try await producer.run(Resolver(injector: owner, frame: frame), for: binding)
            binding.customCache?.keep(value)
            return value
        case .transient:
            if producer.kind == .instance, let instance = producer.synchronous {
                return try instance(SynchronousResolver(injector: self), binding)
            }
            if let recipe = synchronousRecipe(binding, producer, below: parent),
                !binding.synchronousReadsScoped
                    || !isCaptive(below: continuesTaskPath ? ResolutionFrame.active : parent)
            {
                do {
                    return try recipe(SynchronousResolver(injector: self), binding)
                } catch is SynchronousResolutionUnavailable {
                    // A frontier cell was emptied meanwhile; the asynchronous path handles it.
                }
            }
            let frame = try enter(binding, parent: parent, continuesTaskPath: continuesTaskPath)
            return try await producer.run(Resolver(injector: self, frame: frame), for: binding)
        }
    }

    /// Whether a scoped instance resolved below `parent` would be captured by a singleton: the
    /// nearest singleton on the path belongs to an injector that outlives the request (anything
    /// but a request scope itself).
    @usableFromInline
    nonisolated func isCaptive(below parent: ResolutionFrame?) -> Bool {
        var frame = parent
        while let current = frame {
            if current.binding.scope == .singleton { return !owner(of: current.binding).isScope }
            frame = current.parent
        }
        return false
    }

    /// Starts the step for `binding`, refusing a cycle or a runaway depth.
    @usableFromInline
    nonisolated func enter(
        _ binding: Binding,
        parent: ResolutionFrame?,
        continuesTaskPath: Bool
    ) throws(InjectionError) -> ResolutionFrame {
        try ResolutionFrame.enter(
            binding,
            below: continuesTaskPath ? ResolutionFrame.active : parent,
            limit: maxResolutionDepth
        )
    }

    /// The synchronous recipe of `binding`, when the graph below it can be built right now with
    /// plain function calls: the plan of the table that declares it approved it, it stays within
    /// the depth limit, and the singletons it reads are built.
    ///
    /// A binding inherited from an ancestor qualifies too, which is what keeps a request scope
    /// with its own values fast: its dependencies are then looked up through this injector's
    /// table, so the request's values win, and anything the plan did not foresee (an override
    /// that suspends, a singleton not built yet) makes ``SynchronousResolver`` fall back to the
    /// asynchronous path.
    @inlinable
    nonisolated func synchronousRecipe<T: Sendable>(
        _ binding: Binding,
        _ producer: Producer<T>,
        below parent: ResolutionFrame?
    ) -> (@Sendable (SynchronousResolver, Binding) throws -> T)? {
        guard binding.isSynchronous,
            (parent?.depth ?? 0) + binding.synchronousDepth <= maxResolutionDepth,
            let recipe = producer.synchronous, frontierIsBuilt(binding)
        else { return nil }
        return recipe
    }

    /// Whether every cached binding a synchronous build of `binding` reads is built, in the
    /// table that declares `binding`.
    @inlinable
    nonisolated func frontierIsBuilt(_ binding: Binding) -> Bool {
        guard !binding.frontier.isEmpty else { return true }
        var declaring: BindingTable? = table
        while let candidate = declaring, candidate.id != binding.tableID { declaring = candidate.parent }
        guard let declaring else { return false }
        for index in binding.frontier where !isBuilt(declaring.bindings[index]) { return false }
        return true
    }

    /// Builds a scoped instance of this request scope in the calling task, or waits for the task
    /// of the request that is already building it. A failure is shared with the waiters and not
    /// stored.
    @usableFromInline
    nonisolated func buildScoped<T: Sendable>(
        _ binding: Binding,
        producer: Producer<T>,
        cell: ScopedCell,
        frame: ResolutionFrame
    ) async throws -> T {
        while true {
            guard !lifecycle.isShutDown else { throw InjectionError.shutDown(isScope: isScope, key: binding.key) }
            switch cell.claim(as: binding.key) {
            case .built(let box):
                return Built<T>.unbox(box)
            case .claimed(let construction):
                let value: T
                do {
                    value = try await producer.run(
                        Resolver(injector: self, frame: frame.inside(construction)), for: binding)
                } catch {
                    // A builder cancelled on its own hands the construction back to the waiters
                    // of its request instead of failing them with its cancellation.
                    if error is CancellationError || Task.isCancelled { cell.abandon() } else { cell.fail(error) }
                    throw error
                }
                guard record(value, of: binding) else {
                    let ended = InjectionError.shutDown(isScope: isScope, key: binding.key)
                    cell.fail(ended)
                    throw ended
                }
                cell.complete(value)
                return value
            case .inFlight(let construction):
                if let waiter = frame.construction {
                    if let cycle = WaitGraph.recordWait(of: waiter, on: construction) {
                        throw InjectionError.circularDependency(cycle: cycle, path: frame.keys)
                    }
                }
                defer { if let waiter = frame.construction { WaitGraph.endWait(of: waiter, on: construction) } }
                if let box = try await cell.wait(for: construction) {
                    return Built<T>.unbox(box)
                }
            // The construction was abandoned before this caller could wait: claim again.
            }
        }
    }

    /// Whether the cached instance of `binding` that this injector would use is built.
    @usableFromInline
    nonisolated func isBuilt(_ binding: Binding) -> Bool {
        switch binding.scope.kind {
        case .singleton: binding.cell?.isBuilt == true
        case .scoped: nearestScope?.scopedCells.existingCell(for: binding)?.isBuilt == true
        case .transient, .custom: false
        }
    }

    /// Builds a cached binding in this injector, or waits for the construction already in flight.
    @usableFromInline
    nonisolated func construct<T: Sendable>(
        _ binding: Binding,
        producer: Producer<T>,
        cell: SingletonCell?,
        frame: ResolutionFrame
    ) async throws -> T {
        guard let cell else {
            return try await producer.run(Resolver(injector: self, frame: frame), for: binding)
        }
        let flight: InFlight<T>
        switch try await join(binding, producer: producer, cell: cell, frame: frame) {
        case .built(let value):
            return value
        case .waiting(let joined):
            flight = joined
        }
        defer {
            if let waiter = frame.construction {
                WaitGraph.endWait(of: waiter, on: flight.construction)
            }
        }
        return try await flight.outcome.value()
    }

    private enum Joined<T: Sendable>: Sendable {
        case built(T)
        case waiting(InFlight<T>)
    }

    /// Returns the value if it was built meanwhile; otherwise the in-flight construction to await,
    /// starting it if this is the first caller. Records the wait in the ``WaitGraph`` when the
    /// caller is itself a construction, and refuses a wait that would close a cycle.
    private func join<T: Sendable>(
        _ binding: Binding,
        producer: Producer<T>,
        cell: SingletonCell,
        frame: ResolutionFrame
    ) throws(InjectionError) -> Joined<T> {
        if let value = cell.value(as: T.self) { return .built(value) }
        guard !lifecycle.isShutDown else { throw .shutDown(isScope: isScope, key: binding.key) }
        let flight =
            inFlight[ObjectIdentifier(cell)] as? InFlight<T>
            ?? start(binding, producer: producer, cell: cell, frame: frame)
        flight.construction.recordJoin()
        if let waiter = frame.construction,
            let cycle = WaitGraph.recordWait(of: waiter, on: flight.construction)
        {
            throw .circularDependency(cycle: cycle, path: frame.keys)
        }
        return .waiting(flight)
    }

    /// Starts the one shared construction of `binding`. It fills the cell before it leaves the
    /// in-flight table, so a later caller sees one or the other. A failure is not stored.
    private func start<T: Sendable>(
        _ binding: Binding,
        producer: Producer<T>,
        cell: SingletonCell,
        frame: ResolutionFrame
    ) -> InFlight<T> {
        let construction = Construction(key: binding.key)
        let resolver = Resolver(injector: self, frame: frame.inside(construction))
        let slot = ObjectIdentifier(cell)
        let outcome = SharedOutcome<T>()
        // Detached: the construction belongs to no caller, so no caller's cancellation or
        // task-local values (a request's context) reach it, and the provider runs off the actor.
        // Callers await `outcome`, so a cancelled caller can leave while it carries on.
        let task = Task.detached(priority: Task.currentPriority) { [self] in
            do {
                let value = try await producer.run(resolver, for: binding)
                // Shutdown waits for constructions in flight before it closes the log, so this
                // always records.
                _ = record(value, of: binding)
                cell.store(value)
                await endConstruction(at: slot)
                outcome.finish(.success(value))
                return value
            } catch {
                await endConstruction(at: slot)
                outcome.finish(.failure(error))
                throw error
            }
        }
        let flight = InFlight(construction: construction, task: task, outcome: outcome)
        inFlight[slot] = flight
        return flight
    }

    /// Forgets the finished construction at `slot`.
    private func endConstruction(at slot: ObjectIdentifier) {
        inFlight[slot] = nil
    }
}

extension InjectorActor {
    /// How many callers are waiting on the in-flight construction of `key` in this injector (0
    /// when none is in flight). Lets tests wait for a stampede to form without sleeping.
    func callersWaiting(for key: BindingKey) -> Int {
        inFlight.values.first { $0.construction.key == key }?.construction.joins ?? 0
    }
}
