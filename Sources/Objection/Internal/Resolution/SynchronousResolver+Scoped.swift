/// The step of a scoped binding: for the driver (``StepMode/mayWait(_:)``), and built in place,
/// without suspending (``StepMode/inPlace``), by the claims of ScopedSlot+Construction.swift.
extension SynchronousResolver {
    /// The step of a scoped binding for the driver, in the nearest request scope: a value the
    /// scope's opener bound, the instance the scope holds, or one built now — in place when the
    /// plan allows; else a stop to wait for the task of the request building it, or to build it
    /// suspending (see ScopedSlot+Construction.swift).
    func scopedStep<T: Sendable>(
        _ binding: Binding,
        producer: Recipe<T>,
        for driver: StepDriver
    ) throws(SynchronousStop) -> T {
        let parent = driver.parent
        guard let scope = injector.nearestScope, !injector.isCaptive(below: parent) else {
            throw .failed(InjectionError.scopeViolation(binding.key, requestedBy: parent))
        }
        if binding.isSuppliedByScope {
            return try Self.suppliedValue(of: binding, as: T.self, in: scope, below: parent)
        }
        guard let slot = scope.slot(for: binding) else {
            throw .failed(InjectionError.scopeViolation(binding.key, requestedBy: parent))
        }
        if let value = slot.value(as: T.self) { return value }
        // The scope's own bindings build its instances, whoever asked.
        if injector.canBuildSynchronously(binding, below: parent) {
            do {
                return try self.for(scope).buildInPlace(binding, producer: producer, in: slot)
            } catch .mustSuspend {
                // Another task of the request is building it, or the graph gave way: below.
            }
        }
        let frame = try injector.enterStep(binding, below: parent)
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

    /// The value `scope`'s opener bound for `binding`, a stand-in that builds nothing; else an
    /// error that is not a failed construction (an observer hears of the failed get alone),
    /// checked in the order a construction would check them.
    private static func suppliedValue<T: Sendable>(
        of binding: Binding,
        as type: T.Type,
        in scope: InjectorActor,
        below parent: ResolutionFrame?
    ) throws(SynchronousStop) -> T {
        if let value = scope.requestValue(for: binding.key, as: type) { return value }
        do {
            _ = try ResolutionFrame.depth(of: binding, below: parent, limit: scope.maxResolutionDepth)
            guard !scope.isShutDown else { throw InjectionError.shutDown(isScope: true, key: binding.key) }
            throw InjectionError.notSuppliedByScope(binding.key, path: (parent?.keys ?? []) + [binding.key])
        } catch {
            throw .failed(error)
        }
    }

    /// A scoped dependency of a graph built in place, resolved in the nearest request scope: a
    /// value the scope's opener bound, or its instance, built in place unless another task of the
    /// request is building it.
    func scopedInPlace<T: Sendable>(_ binding: Binding, producer: Recipe<T>) throws(SynchronousStop) -> T {
        // The scope's own resolver builds its instances, whoever asked. Two calls rather than a
        // resolver chosen by `?:`, which retained the scope and the reports per instance even
        // when this resolver is the scope's (the common case, which retains none).
        if injector.isScope { return try inScope(binding, producer: producer) }
        guard let scope = injector.enclosingScope else { throw .mustSuspend }
        return try self.for(scope).inScope(binding, producer: producer)
    }

    /// See ``scopedInPlace(_:producer:)``; ``injector`` is the request scope.
    private func inScope<T: Sendable>(_ binding: Binding, producer: Recipe<T>) throws(SynchronousStop) -> T {
        guard let request = injector.request else { throw .mustSuspend }
        // A value the scope's opener bound, read without a `T?` (see RequestState.value).
        if binding.isSuppliedByScope { return try request.value(for: binding.key, as: T.self) }
        let slot = request.slot(for: binding)
        guard binding.isSynchronous else {
            guard let built = slot.withState({ $0.value }) else { throw .mustSuspend }
            return CellValue.unwrap(built, as: T.self)
        }
        return try buildInPlace(binding, producer: producer, in: slot)
    }

    /// Builds a scoped instance in `slot` in place, by the steps of the one construction
    /// (``CellAccess/construct(_:producer:by:at:observed:as:)``) without suspending, unless
    /// it is built or another task of the request is building it (then it gives way). ``injector`` is
    /// the scope.
    func buildInPlace<T: Sendable>(
        _ binding: Binding,
        producer: Recipe<T>,
        in slot: ScopedSlot
    ) throws(SynchronousStop) -> T {
        let claim: CellState.Claim<Void>
        do { claim = try slot.claimInPlace(of: binding, in: injector) } catch { throw .failed(error) }
        switch claim {
        case .built(let box):
            return CellValue.unwrap(box, as: T.self)
        case .wait:
            throw .mustSuspend
        case .build:
            let report = reports?.pointee.started(binding)
            do throws(SynchronousStop) {
                let built = try producer.synchronous(self, binding)
                let value: T
                do { value = try injector.kept(built, of: binding) } catch { throw .failed(error) }
                slot.complete(value, of: nil)
                if let report { reports?.pointee.finished(report) }
                return value
            } catch .failed(let error) {
                slot.end(nil, failing: error)
                if let report { reports?.pointee.failed(report, of: binding, error) }
                throw .failed(error)
            } catch {
                // A dependency gave way (in place, nothing else stops).
                slot.end(nil, failing: nil)
                if let report { reports?.pointee.abandoned(report) }
                throw .mustSuspend
            }
        }
    }
}
