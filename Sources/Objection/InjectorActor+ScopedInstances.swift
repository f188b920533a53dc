/// Scoped instances: one per request scope, built in place by the first task of the request that
/// needs one.
extension InjectorActor {
    /// The slot of `binding`, a scoped binding, in this request scope; `nil` when this injector
    /// is not a request scope.
    nonisolated func slot(for binding: Binding) -> ScopedSlot? {
        request?.slot(for: binding)
    }

    /// Resolves a scoped binding in the nearest request scope: a value the scope's opener bound,
    /// the instance the scope holds, or one built now — with plain function calls when the plan
    /// allows, else step by step.
    @usableFromInline
    nonisolated(nonsending) func resolveScoped<T: Sendable>(
        _ binding: Binding,
        as type: T.Type,
        producer: Recipe<T>,
        below parent: ResolutionFrame?
    ) async throws -> T {
        guard let scope = nearestScope, !isCaptive(below: parent) else {
            throw InjectionError.scopeViolation(binding.key, requestedBy: parent)
        }
        if binding.isSuppliedByScope {
            // A stand-in for a value request scopes supply builds nothing: the scope's value, or
            // an error that is not a failed construction (an observer hears of the failed get
            // alone), checked in the order a construction would check them.
            if let value = scope.requestValue(for: binding.key, as: type) { return value }
            _ = try ResolutionFrame.depth(of: binding, below: parent, limit: maxResolutionDepth)
            guard !scope.isShutDown else { throw InjectionError.shutDown(isScope: true, key: binding.key) }
            throw InjectionError.notSuppliedByScope(binding.key, path: (parent?.keys ?? []) + [binding.key])
        }
        guard let slot = scope.slot(for: binding) else {
            throw InjectionError.scopeViolation(binding.key, requestedBy: parent)
        }
        if let value = slot.value(as: type) { return value }
        // The scope's own bindings build its instances, whoever asked (as on the asynchronous
        // path). `nil`: another task of the request is building it, or the scope ended; see below.
        if canBuildSynchronously(binding, below: parent) {
            let built = try attemptSynchronously(in: scope, below: parent) { resolver throws(SynchronousStop) in
                try resolver.build(binding, producer: producer, in: slot, of: scope)
            }
            if let built { return built }
        }
        let frame = try enter(binding, below: parent)
        return try await scope.buildScoped(binding, producer: producer, in: slot, frame: frame)
    }

    /// Builds a scoped instance of this request scope in the calling task, or waits for the task
    /// of the request that is already building it. A failure is shared with the waiters and not
    /// stored.
    private nonisolated(nonsending) func buildScoped<T: Sendable>(
        _ binding: Binding,
        producer: Recipe<T>,
        in slot: ScopedSlot,
        frame: ResolutionFrame
    ) async throws -> T {
        while true {
            switch slot.claim(as: binding.key) {
            case .built(let box):
                return CellValue.unwrap(box, as: T.self)
            case .build(let construction):
                // Checked after claiming, as for singletons (see `startConstruction`).
                guard !isShutDown else {
                    slot.abandon()
                    throw InjectionError.shutDown(isScope: isScope, key: binding.key)
                }
                let value: T
                do {
                    value = try await observingConstruction(of: binding, at: frame.inside(construction)) { frame in
                        try await producer.run(in: self, frame: frame, for: binding)
                    }
                } catch {
                    // A builder cancelled on its own hands the construction back to the waiters
                    // of its request instead of failing them with its cancellation.
                    if error is CancellationError || Task.isCancelled {
                        slot.abandon()
                    } else {
                        slot.fail(construction, with: error)
                    }
                    throw error
                }
                guard record(value, of: binding) else {
                    let ended = InjectionError.shutDown(isScope: isScope, key: binding.key)
                    slot.fail(construction, with: ended)
                    throw ended
                }
                slot.complete(value, of: construction)
                return value
            case .wait(let construction, let outcome):
                let built = try await CellState.wait(
                    for: construction, outcome: outcome, waiter: frame.construction, path: frame.keys)
                if let built { return CellValue.unwrap(built, as: T.self) }
            // The construction was given up: claim again.
            }
        }
    }
}
