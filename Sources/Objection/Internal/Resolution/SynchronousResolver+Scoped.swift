/// Scoped instances built in place: the driver of ScopedSlot+Construction.swift that does not
/// suspend.
extension SynchronousResolver {
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
    /// (``InjectorActor/construct(_:producer:by:at:observed:in:as:)``) without suspending, unless
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
