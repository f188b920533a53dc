/// Singletons: built once, in a task of their own, by the injector that declares them.
extension InjectorActor {
    /// Resolves a singleton that is not built yet: the first caller starts its one construction,
    /// every concurrent caller waits for it. A failure reaches every waiter and is not stored.
    @usableFromInline
    nonisolated func resolveSingleton<T: Sendable>(
        _ binding: Binding,
        producer: Recipe<T>,
        below parent: ResolutionFrame?
    ) async throws -> T {
        let owner = owner(of: binding)
        let frame = try enter(binding, below: parent)
        guard let cell = binding.cell else {
            return try await producer.run(in: owner, frame: frame, for: binding)
        }
        return try await cell.sharedValue(
            as: T.self,
            key: binding.key,
            waiter: frame.construction,
            path: frame.keys
        ) { construction in
            try owner.startConstruction(
                of: binding,
                producer: producer,
                in: cell,
                as: construction,
                frame: frame.inside(construction)
            )
        }
    }

    /// Starts `construction`, which runs at `frame`, unless this injector is shutting down.
    private nonisolated func startConstruction<T: Sendable>(
        of binding: Binding,
        producer: Recipe<T>,
        in cell: CacheCell,
        as construction: Construction,
        frame: ResolutionFrame
    ) throws(InjectionError) {
        // Checked after claiming the cell: shutdown sets the flag before it looks for
        // constructions in flight, so it either sees this one and waits for it, or this check
        // sees the flag.
        guard !isShutDown else { throw .shutDown(isScope: isScope, key: binding.key) }
        // Detached: the construction belongs to no caller, so no caller's cancellation or
        // task-local values (a request's context) reach it. Callers wait on the cell, so a
        // cancelled caller can leave while it carries on.
        let task = Task.detached(priority: Task.currentPriority) { [self] in
            do {
                let value = try await observingConstruction(of: binding, at: frame) { frame in
                    try await producer.run(in: self, frame: frame, for: binding)
                }
                // Recorded for disposal whether or not the cell still wants it: a construction
                // given up at a startup deadline may finish after all, even after shutdown,
                // which does not wait for it. Then the value is being disposed: nobody gets it.
                guard record(value, of: binding) || !shutdownState.withLock(\.isClosed) else {
                    cell.fail(construction, with: InjectionError.shutDown(isScope: isScope, key: binding.key))
                    return
                }
                cell.complete(value, of: construction)
            } catch {
                cell.fail(construction, with: error)
            }
        }
        construction.attach(task)
    }

    /// How many callers have joined the in-flight construction of `key` in this injector, its
    /// starter included (0 when none is in flight). Lets tests wait for a stampede to form
    /// without sleeping.
    func callersWaiting(for key: BindingKey) -> Int {
        (try? binding(for: key, as: key.type))??.cell?.construction?.joins ?? 0
    }
}
