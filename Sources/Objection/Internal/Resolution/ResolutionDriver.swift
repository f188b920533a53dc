/// The driver of every `get`: the step of a binding (``SynchronousResolver/step(_:producer:_:)``,
/// the one place that decides by lifetime) reads or builds the value without suspending, or says
/// where to suspend; the driver (``proceed(after:with:producer:below:)``) waits or builds there,
/// and steps again. It holds nothing but the injector it resolves in: the engine's state lives in
/// the binding table, the cells and the request scope's storage, which `InjectorActor` holds. The
/// Architecture article walks through it.
///
/// ```swift
/// let value = try await ResolutionDriver(injector).value(for: key, as: Service.self, below: nil)
/// ```
@usableFromInline struct ResolutionDriver {
    /// The injector whose table and caches the resolution reads.
    @usableFromInline let injector: InjectorActor

    @usableFromInline init(_ injector: InjectorActor) {
        self.injector = injector
    }
}

extension ResolutionDriver {
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
    /// ``resolve(_:as:below:)``.
    nonisolated(nonsending) func resolve<T: Sendable>(
        _ binding: Binding,
        producer: Recipe<T>,
        below parent: ResolutionFrame?
    ) async throws -> T {
        var stop: DriverStop?
        if let value = attempt(binding, producer: producer, below: parent, stop: &stop) { return value }
        return try await act(on: stop, with: binding, producer: producer, below: parent)
    }

    /// The value of `key` below `parent`: the shared path of ``InjectorActor/get(_:named:)`` and
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
    func step<T: Sendable>(
        _ key: BindingKey,
        as type: T.Type,
        below parent: ResolutionFrame?,
        found: inout Binding?,
        stop: inout DriverStop?
    ) -> T? {
        guard !injector.isShutDown, let binding = injector.table.binding(for: key) else { return nil }
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
            return try await injector.resolve(key, as: type, below: parent)
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
            return try await producer.run(in: injector, frame: frame, for: binding)
        case let stop:
            return try await proceed(after: stop, with: binding, producer: producer, below: parent)
        }
    }

    /// The step of `binding` below `parent`, for the driver: the value, or what the driver must
    /// do. The resolver notes the constructions built in place for the observer, if there is one
    /// (see ``ConstructionReports``), and tells it of them when the step returns; an observer of
    /// failures only hears of a failure as it happens.
    @inlinable
    func attempt<T: Sendable>(
        _ binding: Binding,
        producer: Recipe<T>,
        below parent: ResolutionFrame?,
        stop: inout DriverStop?
    ) -> T? {
        let stepped = withUnsafeMutablePointer(to: &stop) { slot in
            let mode = StepMode.mayWait(StepDriver(parent: parent, suspension: slot))
            guard let observing = injector.observing else {
                return Result { () throws(SynchronousStop) in
                    try SynchronousResolver(injector: injector, reports: nil).step(binding, producer: producer, mode)
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
    func reportingStep<T: Sendable>(
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
                try SynchronousResolver(injector: injector, reports: reports).step(binding, producer: producer, mode)
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
                return try await producer.run(in: injector, frame: frame, for: binding)
            case .build(let pending):
                return try await buildCached(binding, producer: producer, pending)
            }
            if let value = attempt(binding, producer: producer, below: parent, stop: &next) { return value }
        }
        throw InjectionError.gaveWay(binding.key, requestedBy: parent)
    }

    /// Builds a cached instance suspending, telling the observer: a scoped one in its slot, by
    /// the one construction (``CellAccess/construct(_:producer:by:at:observed:as:)``), or a
    /// custom-scoped one, kept in its cache, which shares no construction with waiters.
    @usableFromInline
    nonisolated(nonsending) func buildCached<T: Sendable>(
        _ binding: Binding,
        producer: Recipe<T>,
        _ pending: PendingBuild
    ) async throws -> T {
        if let (slot, construction) = pending.claimed {
            return try await slot.construct(
                binding, producer: producer, by: pending.injector, at: pending.frame,
                observed: injector.startingConstruction(of: binding, at: pending.frame), as: construction)
        }
        return try await injector.observingConstruction(of: binding, at: pending.frame) { frame in
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
                try await binding.producer.resolve(in: injector, binding: binding, below: parent), as: type)
        {
            return named
        }
        throw InjectionError.typeMismatch(
            binding.key,
            produced: binding.producer.producedType,
            path: (parent?.keys ?? []) + [binding.key]
        )
    }
}
