/// Resolves the dependencies of a synchronous recipe with plain function calls.
///
/// Only reached for bindings the ``SynchronousPlan`` approved, after their frontier cells were
/// found built. If anything is not as planned, it stops with ``SynchronousStop/mustSuspend`` and
/// the caller takes the asynchronous path, which reports problems with their full path.
///
/// Recipes of autowired parameter packs run this code unspecialised, so it avoids anything that
/// would ask the runtime for generic metadata (`as?` to a generic class, `T?`).
@usableFromInline
struct SynchronousResolver {
    @usableFromInline let injector: InjectorActor
    /// Where the constructions are noted for the observer, on the stack of the call that
    /// resolves (see ``ConstructionReports``); `nil` without one. Valid only during that call: a
    /// resolver is passed down through plain nested calls and never stored, captured by a
    /// closure that outlives them, or handed to a task.
    @usableFromInline let reports: UnsafeMutablePointer<ConstructionReports>?

    /// Resolves for `injector`, through its table, noting constructions in `reports`.
    @inlinable
    init(injector: InjectorActor, reports: UnsafeMutablePointer<ConstructionReports>?) {
        self.injector = injector
        self.reports = reports
    }

    /// Resolves the `position`-th declared dependency of `binding` and advances `position`.
    ///
    /// Not inlinable: autowired recipes call it from a parameter-pack expansion, which the
    /// optimizer does not specialise per element anyway. The lookup and the lifetime switch below
    /// it (``dependency(_:at:of:)``, both `resolve`s and `Binding.withUnretainedProducer`) are
    /// always inlined into it, so that a dependency costs one unspecialised call, not five:
    /// 413 → 360–374 ns for the autowired 8-object graph (objection-compare, case 1), and each of
    /// the four marks counted (dropping any one gave 374–400 ns).
    @usableFromInline
    func next<T: Sendable>(_ type: T.Type, of binding: Binding, at position: inout Int) throws(SynchronousStop) -> T {
        defer { position += 1 }
        return try dependency(type, at: position, of: binding)
    }

    /// The `position`-th declared dependency of `binding`.
    @inline(__always)
    func dependency<T: Sendable>(_ type: T.Type, at position: Int, of binding: Binding) throws(SynchronousStop) -> T {
        // The lookup, and its override rule, are the asynchronous path's (BindingTable.dependency).
        // The plan holds for an override only when it builds nothing (a value, a built
        // singleton) or comes from the plan's own table: then its depth and captive analysis
        // still hold. Anything else, and an unbound key, leave this path.
        guard let found = injector.table.unretainedDependency(position, of: binding) else {
            throw .mustSuspend
        }
        do {
            return try found._withUnsafeGuaranteedRef { dependency in
                guard
                    dependency.tableID == binding.tableID || dependency.producer.isInstance
                        || dependency.scope == .singleton
                else { throw SynchronousStop.mustSuspend }
                return try resolve(dependency, as: type)
            }
        } catch {
            throw .rethrown(error)
        }
    }

    @inline(__always)
    func resolve<T: Sendable>(_ binding: Binding, as type: T.Type) throws(SynchronousStop) -> T {
        guard binding.produces(type) else { return try resolveNamed(binding, as: type) }
        do {
            return try binding.withUnretainedProducer(as: type) { try resolve(binding, producer: $0) }
        } catch {
            throw .rethrown(error)
        }
    }

    @inline(__always)
    func resolve<T: Sendable>(_ binding: Binding, producer: Recipe<T>) throws(SynchronousStop) -> T {
        let type = T.self
        switch binding.scope.kind {
        case .singleton:
            guard let built = binding.cell?.builtBox() else { throw .mustSuspend }
            return CellValue.unwrap(built, as: type)
        case .scoped:
            // The scope's own resolver builds its instances, whoever asked. Two calls rather than
            // a resolver chosen by `?:`, which retained the scope and the reports per instance
            // even when this resolver is the scope's (the common case, which now retains none).
            if injector.isScope { return try resolveInScope(binding, producer: producer) }
            guard let scope = injector.enclosingScope else { throw .mustSuspend }
            return try SynchronousResolver(injector: scope, reports: reports).resolveInScope(
                binding, producer: producer)
        case .custom:
            throw .mustSuspend
        case .transient:
            guard producer.kind == .instance || binding.isSynchronous else { throw .mustSuspend }
            return try producer.synchronous(self, binding)
        }
    }

    /// Resolves a ``Scope/scoped`` binding in ``injector``, a request scope: a value its opener
    /// bound, or its instance, built in place unless another task of the request is building it.
    @inline(__always)
    func resolveInScope<T: Sendable>(_ binding: Binding, producer: Recipe<T>) throws(SynchronousStop) -> T {
        guard let request = injector.request else { throw .mustSuspend }
        // A value the scope's opener bound, read without a `T?` (see RequestState.value).
        if binding.isSuppliedByScope { return try request.value(for: binding.key, as: T.self) }
        let slot = request.slot(for: binding)
        guard binding.isSynchronous else {
            guard let built = slot.withState({ $0.value }) else { throw .mustSuspend }
            return CellValue.unwrap(built, as: T.self)
        }
        return try build(binding, producer: producer, in: slot, of: injector)
    }

    /// Builds a scoped instance in place, unless another task of the request is building it.
    func build<T: Sendable>(
        _ binding: Binding,
        producer: Recipe<T>,
        in cell: ScopedSlot,
        of scope: InjectorActor
    ) throws(SynchronousStop) -> T {
        switch cell.claimInPlace() {
        case .built(let box):
            return CellValue.unwrap(box, as: T.self)
        case .busy:
            throw .mustSuspend
        case .build:
            // Checked after claiming, as on the asynchronous path.
            guard !scope.isShutDown else {
                cell.abandon()
                throw .mustSuspend
            }
            let report = reports?.pointee.started(binding)
            let start = scope.failureClockStart
            let value: T
            do {
                value = try producer.synchronous(self, binding)
            } catch .mustSuspend {
                cell.abandon()
                if let report { reports?.pointee.abandoned(report) }
                throw .mustSuspend
            } catch .failed(let error) {
                // An InjectionError (a configuration error, such as a type mismatch) gives the
                // cell up: a task waiting on it claims it again and meets the error itself. Any
                // other error fails the cell, and its waiters get that error. Either way the
                // error reaches this caller as it was thrown.
                if error is InjectionError { cell.abandon() } else { cell.failInPlace(with: error) }
                if let report { reports?.pointee.failed(report, error) }
                scope.reportFailedConstruction(of: binding, startedAt: start, error)
                throw .failed(error)
            }
            guard scope.record(value, of: binding) else {
                // The scope is ending: the asynchronous path will refuse to build it again, so
                // the observer hears of this construction here, as ended by the shutdown.
                cell.abandon()
                let ended = InjectionError.shutDown(isScope: scope.isScope, key: binding.key)
                if let report { reports?.pointee.failed(report, ended) }
                scope.reportFailedConstruction(of: binding, startedAt: start, ended)
                throw .mustSuspend
            }
            if let report { reports?.pointee.finished(report) }
            cell.completeInPlace(value)
            return value
        }
    }
}
