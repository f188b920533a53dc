/// The path of every `get`: key → binding → scope cache → provider → value.
///
/// The fast paths — an instance, a built singleton, a transient graph that can be built without
/// suspending — are inlinable so that they are specialised for `T` in the caller's module. The
/// rest goes through ``ResolutionFrame``s, which name the path in errors and catch cycles.
extension InjectorActor {
    /// Produces `binding`'s value as its scope dictates.
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
        guard binding.produces(type), let producer = binding.producer(as: type) else {
            throw InjectionError.typeMismatch(
                binding.key,
                produced: binding.producer.producedType,
                path: (parent?.keys ?? []) + [binding.key]
            )
        }
        if binding.scope.isCached, let cell = cells[binding.index] {
            if let value = cell.value(as: type) { return value }
            let frame = try ResolutionFrame.enter(
                binding,
                below: continuesTaskPath ? ResolutionFrame.active : parent,
                limit: maxResolutionDepth
            )
            return try await construct(binding, producer: producer, cell: cell, frame: frame)
        }
        if producer.kind == .instance, let instance = producer.synchronous {
            return try instance(SynchronousResolver(injector: self), binding)
        }
        if binding.isSynchronous, let recipe = producer.synchronous, frontierIsBuilt(binding) {
            do {
                return try recipe(SynchronousResolver(injector: self), binding)
            } catch is SynchronousResolutionUnavailable {
                // A frontier cell was emptied meanwhile; the asynchronous path handles it.
            } catch is InjectionError {
                // Rebuilt below, where the error gets its full resolution path.
            }
        }
        let frame = try ResolutionFrame.enter(
            binding,
            below: continuesTaskPath ? ResolutionFrame.active : parent,
            limit: maxResolutionDepth
        )
        return try await producer.asynchronous(Resolver(injector: self, frame: frame), binding)
    }

    /// Whether every cached binding a synchronous build of `binding` reads is built.
    @inlinable
    nonisolated func frontierIsBuilt(_ binding: Binding) -> Bool {
        for index in binding.frontier where cells[index]?.isBuilt != true { return false }
        return true
    }

    /// Builds a cached binding, or waits for the construction already in flight.
    @usableFromInline
    nonisolated func construct<T: Sendable>(
        _ binding: Binding,
        producer: Producer<T>,
        cell: SingletonCell,
        frame: ResolutionFrame
    ) async throws -> T {
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
        return try await flight.task.value
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
        let flight =
            inFlight[binding.index] as? InFlight<T> ?? start(binding, producer: producer, cell: cell, frame: frame)
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
        let index = binding.index
        // Detached: the construction belongs to no caller, so no caller's cancellation or
        // task-local values (a request's context) reach it, and the provider runs off the actor.
        let task = Task.detached(priority: Task.currentPriority) { [self] in
            do {
                let value = try await producer.asynchronous(resolver, binding)
                cell.store(value)
                await endConstruction(at: index)
                return value
            } catch {
                await endConstruction(at: index)
                throw error
            }
        }
        let flight = InFlight(construction: construction, task: task)
        inFlight[index] = flight
        return flight
    }
}

extension InjectorActor {
    /// Forgets the finished construction at `index`.
    private func endConstruction(at index: Int) {
        inFlight[index] = nil
    }

    /// How many callers are waiting on the in-flight construction of `key` (0 when none is in
    /// flight). Lets tests wait for a stampede to form without sleeping.
    func callersWaiting(for key: BindingKey) -> Int {
        guard let index = table.position(of: key), let flight = inFlight[index] else {
            return 0
        }
        return flight.construction.joins
    }
}
