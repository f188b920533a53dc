/// The path of every `get`: key → binding → scope cache → provider → value.
extension InjectorActor {
    /// Looks `key` up and resolves it below `parent`.
    nonisolated func resolve<T: Sendable>(
        _ key: BindingKey,
        as type: T.Type,
        parent: ResolutionFrame?
    ) async throws -> T {
        guard let binding = table.binding(for: key) else {
            throw InjectionError.missingBinding(key, requestedBy: parent)
        }
        return try await resolve(binding, as: type, parent: parent)
    }

    /// Like ``resolve(_:as:parent:)``, but `nil` when `key` itself is unbound.
    nonisolated func resolveIfBound<T: Sendable>(
        _ key: BindingKey,
        as type: T.Type,
        parent: ResolutionFrame?
    ) async throws -> T? {
        guard let binding = table.binding(for: key) else { return nil }
        return try await resolve(binding, as: type, parent: parent)
    }

    /// Produces `binding`'s value as its scope dictates.
    nonisolated func resolve<T: Sendable>(
        _ binding: Binding,
        as type: T.Type,
        parent: ResolutionFrame?
    ) async throws -> T {
        guard let producer = binding.producer as? Producer<T> else {
            throw InjectionError.typeMismatch(
                binding.key,
                produced: binding.producer.producedType,
                path: (parent?.keys ?? []) + [binding.key]
            )
        }
        if case .instance(let value) = producer.body { return value }

        let cell = binding.scope.isCached ? cells[binding.index] as? SingletonCell<T> : nil
        if let value = cell?.value { return value }

        let frame = try ResolutionFrame.enter(binding, below: parent, limit: maxResolutionDepth)
        guard let cell else {
            return try await producer.produce(Resolver(injector: self, frame: frame), for: binding)
        }
        return try await construct(binding, producer: producer, cell: cell, frame: frame)
    }

    /// Builds a cached binding, or waits for the construction already in flight.
    private nonisolated func construct<T: Sendable>(
        _ binding: Binding,
        producer: Producer<T>,
        cell: SingletonCell<T>,
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
        cell: SingletonCell<T>,
        frame: ResolutionFrame
    ) throws(InjectionError) -> Joined<T> {
        if let value = cell.value { return .built(value) }
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

    /// Starts the one shared construction of `binding`. The task is unstructured so that no
    /// caller's cancellation reaches it; it fills the cell before it leaves the in-flight table,
    /// so a later caller sees one or the other. A failure is not stored.
    private func start<T: Sendable>(
        _ binding: Binding,
        producer: Producer<T>,
        cell: SingletonCell<T>,
        frame: ResolutionFrame
    ) -> InFlight<T> {
        let construction = Construction(key: binding.key)
        let resolver = Resolver(injector: self, frame: frame.inside(construction))
        let index = binding.index
        let task = Task { [self] in
            defer { inFlight[index] = nil }
            let value = try await producer.produce(resolver, for: binding)
            cell.store(value)
            return value
        }
        let flight = InFlight(construction: construction, task: task)
        inFlight[index] = flight
        return flight
    }
}

extension InjectorActor {
    /// How many callers are waiting on the in-flight construction of `key` (0 when none is in
    /// flight). Lets tests wait for a stampede to form without sleeping.
    func callersWaiting(for key: BindingKey) -> Int {
        guard let index = table.index(of: key), let flight = inFlight[index] else {
            return 0
        }
        return flight.construction.joins
    }
}
