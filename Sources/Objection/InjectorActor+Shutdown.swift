/// Ordered asynchronous shutdown.
extension InjectorActor {
    /// Disposes everything this injector built and cached, in reverse order of construction, each
    /// exactly once, and releases its caches.
    ///
    /// Singletons are disposed by the injector that declares them; a request scope disposes its
    /// scoped instances when it ends. Values bound with `toInstance` are not disposed. One
    /// failing disposal does not stop the others. Constructions still in flight are awaited first
    /// and what they build is disposed too — but those the caller runs inside (a provider that
    /// shuts its own injector down), which wait for this call: what they build is disposed when
    /// they finish. Called from a cancelled task, it does not wait for constructions in flight:
    /// it returns, and the disposal, in the same order, runs in the background once they end.
    /// Afterwards `get`, `child(modules:startup:)` and `withScope(modules:_:)` throw
    /// ``InjectionError/Code/shutDown``. Calling it again waits for the first call and does
    /// nothing more; from a disposal of this injector or from inside a construction, which the
    /// first call may be waiting for, it returns at once.
    ///
    /// ```swift
    /// if let failure = await injector.shutdown() {
    ///     logger.error("\(failure)")
    /// }
    /// ```
    ///
    /// - Returns: `nil` when every disposal succeeded; otherwise an
    ///   ``InjectionError/Code/disposalFailed`` error with one problem per failure, each carrying
    ///   the disposal's error as ``InjectionError/underlying``.
    @discardableResult
    public nonisolated(nonsending) func shutdown() async -> InjectionError? {
        await shutdown(after: .succeeded)
    }

    /// Shuts down, disposing after work that ended with `outcome`: a request scope passes how its
    /// body ended.
    @discardableResult
    nonisolated(nonsending) func shutdown(after outcome: ScopeOutcome) async -> InjectionError? {
        enum Role {
            case disposer
            case waiter(SharedOutcome<Void>, disposer: Int?)
            case done
        }
        let role = shutdownState.withLock { state -> Role in
            switch state.phase {
            case .running:
                state.phase = .disposing(nil)
                return .disposer
            case .disposing(let existing):
                let outcome = existing ?? SharedOutcome<Void>()
                state.phase = .disposing(outcome)
                return .waiter(outcome, disposer: state.disposer)
            case .finished:
                return .done
            }
        }
        switch role {
        case .done:
            return nil
        case .waiter(let outcome, let disposer):
            // The first call may be waiting for the caller: a disposal of this injector, on the
            // task running them, or a construction in flight (the first call waits for them
            // all). Either returns at once. A cancelled caller stops waiting; the first call
            // carries on.
            guard disposer == nil || disposer != Self.currentTask, ResolutionFrame.current?.construction == nil
            else { return nil }
            _ = try? await outcome.value()
            return nil
        case .disposer:
            shutdownFlag.set()
            // No construction starts after the flag is set (a claimant checks it after claiming);
            // those already running record their values for disposal as they finish. Those the
            // caller runs inside wait for this call: they are not waited for, and what they
            // build is disposed in the background (see `record(_:of:)`).
            let inFlight = outcomesInFlightExceptTheCaller
            guard await Self.waitUnlessCancelled(for: inFlight) else {
                // A cancelled caller does not wait; the disposal, in the same order, does, in the
                // background. Later calls wait for it.
                Task { _ = await self.disposeAll(after: outcome, waitingFor: inFlight) }
                return nil
            }
            return await disposeAll(after: outcome, waitingFor: [])
        }
    }

    /// The outcomes of the constructions in flight, but those the calling task runs inside. The
    /// task's frame is read only when something is in flight: most shutdowns have nothing to
    /// wait for, and a request scope that disposes something ends through here.
    private nonisolated var outcomesInFlightExceptTheCaller: [SharedOutcome<CellState.Value?>] {
        let inFlight = outcomesInFlight(excluding: [])
        guard !inFlight.isEmpty, let caller = ResolutionFrame.current?.enclosingConstructions, !caller.isEmpty else {
            return inFlight
        }
        return outcomesInFlight(excluding: caller)
    }

    /// Waits for `outcomes` until they end, or until the calling task is cancelled: whether
    /// they all ended.
    private nonisolated(nonsending) static func waitUnlessCancelled(
        for outcomes: [SharedOutcome<CellState.Value?>]
    ) async -> Bool {
        for outcome in outcomes {
            _ = try? await outcome.value()
            if Task.isCancelled { return false }
        }
        return true
    }

    /// The current task's identity, for ``ShutdownState/disposer``: the hash of its
    /// `UnsafeCurrentTask`, which is kept no longer than this call. Not a task-local value set
    /// around the disposals: that cost every request scope that disposes something (Benchmarks/
    /// README, "Why the code is shaped so").
    private static var currentTask: Int? { withUnsafeCurrentTask { $0?.hashValue } }

    /// Ends this request scope: at once when it can (``shutDownAtOnce()``), else through
    /// ``shutdown(after:)``, whose disposal failure it returns.
    nonisolated(nonsending) func end(after outcome: ScopeOutcome) async -> InjectionError? {
        shutDownAtOnce() ? nil : await shutdown(after: outcome)
    }

    /// Ends this request scope without suspending when it has nothing to wait for or dispose: no
    /// construction in flight and nothing recorded for disposal, as most request scopes end.
    /// `false`, changing nothing but the flag, when ``shutdown(after:)`` must do it.
    nonisolated func shutDownAtOnce() -> Bool {
        guard !ownsTable, let request else { return false }
        // Set first, as shutdown(after:) does: a construction claimed after this sees the flag
        // and gives up, so none can start once the cells are found idle.
        shutdownFlag.set()
        guard request.endAtOnce() else { return false }
        request.releaseCells()
        return true
    }

    /// Waits for `inFlight`, disposes everything recorded, in reverse order, and finishes the
    /// shutdown: the later calls waiting for it return.
    private nonisolated(nonsending) func disposeAll(
        after outcome: ScopeOutcome,
        waitingFor inFlight: [SharedOutcome<CellState.Value?>]
    ) async -> InjectionError? {
        // One given up at startup is no longer in its cell, so is not waited for.
        for construction in inFlight { _ = try? await construction.value() }
        if ownsTable {
            for binding in table.declaredBindings { binding.cell?.clear() }
        }
        for binding in justInTime?.all ?? [] { binding.cell?.clear() }
        request?.removeAll()
        // Not for a request scope opened without modules, whose hooks cannot reach it unless an
        // instance kept it: hashing the task costs every request that disposes (Benchmarks/README).
        let disposer = ownsTable ? Self.currentTask : nil
        let disposals = shutdownState.withLock { $0.close(by: disposer) }
        var failures: [(key: BindingKey, error: any Error)] = []
        for disposal in disposals.reversed() {
            let failure = await Self.runDisposal(disposal, after: outcome, observing: observing)
            if let failure { failures.append((disposal.key, failure)) }
        }
        let waiters = shutdownState.withLock { state -> SharedOutcome<Void>? in
            defer { state.phase = .finished }
            if case .disposing(let outcome) = state.phase { return outcome }
            return nil
        }
        waiters?.finish(.success(()))
        return failures.isEmpty ? nil : .disposalFailed(failures)
    }

    /// Runs `disposal` after work that ended with `outcome`, telling the observer (successes only
    /// when it `observesSuccesses`); returns its error, if any. Static, so that a disposal run in
    /// the background holds the observer and not the injector.
    nonisolated(nonsending) static func runDisposal(
        _ disposal: Disposal,
        after outcome: ScopeOutcome,
        observing: ObserverReference?
    ) async -> (any Error)? {
        // The clock is read only for an observer: twice per disposal is measurable per request.
        let start = observing != nil ? ContinuousClock.now : nil
        var failure: (any Error)?
        do {
            try await disposal.dispose(outcome)
        } catch {
            failure = error
        }
        if let observing, let start, failure != nil || observing.observesSuccesses {
            observing.observer.disposed(disposal.key, duration: .now - start, error: failure)
        }
        return failure
    }

    /// The cells of the singletons this injector builds: those it declares (when it owns its
    /// table) and its just-in-time ones.
    nonisolated var singletonCells: [CacheCell] {
        ((ownsTable ? table.declaredBindings : []) + (justInTime?.all ?? [])).compactMap(\.cell)
    }

    /// The outcomes of the constructions of this injector's caches that are in flight — its
    /// singletons' and, for a request scope, its scoped instances' — but those of `excluded`.
    /// Taken once, so that a construction that ends and a new one that starts meanwhile is not
    /// waited for.
    nonisolated func outcomesInFlight(excluding excluded: [Construction]) -> [SharedOutcome<CellState.Value?>] {
        var outcomes = request?.outcomesInFlight(excluding: excluded) ?? []
        // A request scope opened without modules builds no singletons: no array to make.
        if ownsTable || justInTime != nil {
            outcomes += singletonCells.compactMap { $0.outcomeInFlight(excluding: excluded) }
        }
        return outcomes
    }
}
