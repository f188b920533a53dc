/// One call of an injector's shutdown: the first call drains and disposes, later ones wait for it
/// (or return at once where waiting could deadlock), and a call after it has finished does
/// nothing. ``InjectorActor/shutdown(within:)``, the end of a request scope and a creation whose
/// start-up failed run one.
///
/// ```swift
/// let failure = await ShutdownRun(of: scope, after: .failed(error)).run(within: nil)
/// ```
///
/// **The disposer.** It drains (``Drain``) up to the deadline, then sets the shutdown flag, ends
/// the cached singletons' cells, takes every recorded disposal and runs them newest first, each
/// once, whatever the others do; a request scope then releases the generations of refreshable
/// bindings it pinned. A cancelled caller does not wait: the drain, with the same deadline, and
/// the disposals, in the same order, run in a task of their own.
struct ShutdownRun: Sendable {
    /// The injector that shuts down.
    let injector: InjectorActor
    /// How the work the disposals follow ended: a request scope passes how its body ended.
    let outcome: ScopeOutcome

    init(of injector: InjectorActor, after outcome: ScopeOutcome) {
        self.injector = injector
        self.outcome = outcome
    }

    /// Shuts the injector down, draining for at most `timeout`; the failure the first call
    /// reports (see ``InjectorActor/shutdown(within:)``), `nil` for the calls after it.
    nonisolated(nonsending) func run(within timeout: Duration?) async -> InjectionError? {
        enum Role {
            case disposer
            case waiter(SharedOutcome<Void>)
            case done
        }
        let role = injector.shutdownState.withLock { state -> Role in
            switch state.phase {
            case .running:
                state.phase = .disposing(nil)
                return .disposer
            case .disposing(let existing):
                let outcome = existing ?? SharedOutcome<Void>()
                state.phase = .disposing(outcome)
                return .waiter(outcome)
            case .finished:
                return .done
            }
        }
        switch role {
        case .done:
            return nil
        case .waiter(let outcome):
            // The first call may be waiting for the caller: a disposal of this injector (or a
            // task one started), a construction in flight or a request scope still open (the
            // first call waits for them all). Either returns at once. A cancelled caller stops
            // waiting; the first call carries on.
            guard !DisposingInjectors.includes(injector),
                ResolutionFrame.current?.construction == nil, !InjectorActor.callerRunsInSharedConstruction,
                injector.isScope || injector.callerScopeIDs.isEmpty
            else { return nil }
            _ = try? await outcome.value()
            return nil
        case .disposer:
            let drain = Drain.begin(on: injector, within: timeout)
            var end = drain.endWithoutWaiting()
            if end == nil { end = await drain.run() }
            guard let end, case .cancelled = end else {
                return await disposeAll(drained: drain, end ?? .finished)
            }
            // A cancelled caller does not wait; the drain, with the same deadline, and the
            // disposal, in the same order, run in the background. Later calls wait for them.
            Task { _ = await disposeAll(drained: drain, await drain.run()) }
            return nil
        }
    }

    /// Disposes everything recorded, in reverse order, once `drain` has ended (`end`), and
    /// finishes the shutdown: the later calls waiting for it return.
    private nonisolated(nonsending) func disposeAll(drained drain: Drain, _ end: Drain.End) async -> InjectionError? {
        injector.shutdownFlag.set()
        let drainFailure = end.failure
        let observing = injector.observing
        if let clock = drain.clock { observing?.observer.drained(duration: .now - clock.start, error: drainFailure) }
        if injector.ownsTable {
            for binding in injector.table.declaredBindings { binding.lifetime.cell?.clear() }
        }
        for binding in injector.justInTime?.all ?? [] { binding.lifetime.cell?.clear() }
        let pins = injector.request?.removeAll() ?? []
        let disposals = injector.shutdownState.withLock { $0.close() }
        // Marked for a shutdown a hook calls (DisposingInjectors): not for a request scope
        // opened without modules, whose hooks cannot reach it unless an instance kept it.
        let failures =
            injector.ownsTable && !disposals.isEmpty
            ? await DisposingInjectors.disposing(injector) { await run(disposals) }
            : await run(disposals)
        // The generations of refreshable bindings a request scope read, after its own disposals.
        if !pins.isEmpty { await injector.release(pins, after: outcome) }
        let waiters = injector.shutdownState.withLock { state -> SharedOutcome<Void>? in
            defer { state.phase = .finished }
            if case .disposing(let outcome) = state.phase { return outcome }
            return nil
        }
        waiters?.finish(.success(()))
        let disposalFailure = failures.isEmpty ? nil : InjectionError.disposalFailed(failures)
        guard let drainFailure else { return disposalFailure }
        return InjectionError(
            code: drainFailure.code,
            message: drainFailure.message,
            problems: drainFailure.problems + (disposalFailure?.problems ?? [])
        )
    }

    /// Runs `disposals`, newest first; the failures.
    private nonisolated(nonsending) func run(_ disposals: [Disposal]) async -> [(key: BindingKey, error: any Error)] {
        var failures: [(key: BindingKey, error: any Error)] = []
        for disposal in disposals.reversed() {
            if let failure = await disposal.run(after: outcome, observing: injector.observing) {
                failures.append((disposal.key, failure))
            }
        }
        return failures
    }
}
