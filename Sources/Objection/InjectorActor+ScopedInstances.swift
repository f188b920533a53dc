/// Scoped instances, one per request scope, for the asynchronous driver
/// (``SynchronousResolver/step(_:producer:_:)``, ``StepMode/mayWait(_:)``).
extension InjectorActor {
    /// The slot of `binding`, a scoped binding, in this request scope; `nil` when this injector
    /// is not a request scope.
    nonisolated func slot(for binding: Binding) -> ScopedSlot? {
        request?.slot(for: binding)
    }

    /// The step of a scoped binding for the driver, in the nearest request scope: a value the
    /// scope's opener bound, the instance the scope holds, or one built now — in place when the
    /// plan allows; else a stop to wait for the task of the request building it, or to build it
    /// suspending (see ScopedSlot+Construction.swift).
    nonisolated func scopedStep<T: Sendable>(
        _ binding: Binding,
        producer: Recipe<T>,
        for driver: StepDriver,
        resolver: SynchronousResolver
    ) throws(SynchronousStop) -> T {
        let parent = driver.parent
        guard let scope = nearestScope, !isCaptive(below: parent) else {
            throw .failed(InjectionError.scopeViolation(binding.key, requestedBy: parent))
        }
        if binding.isSuppliedByScope { return try scope.suppliedValue(of: binding, as: T.self, below: parent) }
        guard let slot = scope.slot(for: binding) else {
            throw .failed(InjectionError.scopeViolation(binding.key, requestedBy: parent))
        }
        if let value = slot.value(as: T.self) { return value }
        // The scope's own bindings build its instances, whoever asked.
        if canBuildSynchronously(binding, below: parent) {
            do {
                return try resolver.for(scope).buildInPlace(binding, producer: producer, in: slot)
            } catch .mustSuspend {
                // Another task of the request is building it, or the graph gave way: below.
            }
        }
        let frame = try enterStep(binding, below: parent)
        let claim: CellState.Claim<Construction>
        do { claim = try slot.claim(of: binding, in: scope) } catch { throw .failed(error) }
        switch claim {
        case .built(let box):
            return CellValue.unwrap(box, as: T.self)
        case .wait(let inFlight, let outcome):
            throw driver.suspend(.wait(ConstructionWait(construction: inFlight, outcome: outcome, waiter: frame)))
        case .build(let claimed):
            throw driver.suspend(
                .build(PendingBuild(injector: scope, frame: frame.inside(claimed), claimed: (slot, claimed))))
        }
    }

    /// The value a request scope's opener bound for `binding`, a stand-in that builds nothing;
    /// else an error that is not a failed construction (an observer hears of the failed get
    /// alone), checked in the order a construction would check them.
    private nonisolated func suppliedValue<T: Sendable>(
        of binding: Binding,
        as type: T.Type,
        below parent: ResolutionFrame?
    ) throws(SynchronousStop) -> T {
        if let value = requestValue(for: binding.key, as: type) { return value }
        do {
            _ = try ResolutionFrame.depth(of: binding, below: parent, limit: maxResolutionDepth)
            guard !isShutDown else { throw InjectionError.shutDown(isScope: true, key: binding.key) }
            throw InjectionError.notSuppliedByScope(binding.key, path: (parent?.keys ?? []) + [binding.key])
        } catch {
            throw .failed(error)
        }
    }
}
