/// One shutdown's wait before it disposes: for the request scopes still open (an injector that is
/// not a scope), then — the injector refusing new constructions from that moment — for the
/// constructions in flight, all within one deadline.
///
/// Run again after a cancellation, it waits for the same scopes until the same deadline.
struct Drain: Sendable {
    /// How a drain ended.
    enum End: Sendable {
        /// Everything it waited for ended.
        case finished
        /// The deadline passed; the error names what was still open or being built.
        case timedOut(InjectionError)
        /// The caller was cancelled, and stopped waiting.
        case cancelled

        /// The report of a deadline that passed.
        var failure: InjectionError? {
            if case .timedOut(let error) = self { return error }
            return nil
        }
    }

    /// When a drain began and when it stops waiting. A reference, made only for an injector
    /// that is not a scope: a clock instant is not of a fixed size, and in a value that an
    /// asynchronous function holds it would cost every request scope's end allocations from the
    /// task's allocator.
    final class Clock: Sendable {
        /// When the drain began.
        let start: ContinuousClock.Instant
        /// How long it may wait.
        let timeout: Duration?
        /// `start + timeout`, `nil` for no timeout, or one too long for the clock to count.
        let deadline: ContinuousClock.Instant?

        init(timeout: Duration?) {
            let start = ContinuousClock.now
            self.start = start
            self.timeout = timeout
            if let timeout, timeout < InjectorActor.longestDeadline {
                deadline = start + timeout
            } else {
                deadline = nil
            }
        }
    }

    private let injector: InjectorActor
    /// What ends the wait for the request scopes, `nil` when none is open but the caller's.
    private let scopes: SharedOutcome<Void>?
    /// The drain's start and deadline; `nil` for a request scope's end, which reads no clock and
    /// has no deadline.
    let clock: Clock?

    private init(of injector: InjectorActor, scopes: SharedOutcome<Void>?, clock: Clock?) {
        self.injector = injector
        self.scopes = scopes
        self.clock = clock
    }

    /// Begins the drain of `injector`: for one that is not a scope, refuses new request scopes
    /// from now on and starts the clock of `timeout`; a request scope's end waits for nothing
    /// but its constructions in flight, with no deadline.
    static func begin(on injector: InjectorActor, within timeout: Duration?) -> Drain {
        guard !injector.isScope else { return Drain(of: injector, scopes: nil, clock: nil) }
        // Marked draining either way: no scope opens from now on.
        let scopes = injector.openScopes.drain(exempting: injector.callerScopeIDs)
        return Drain(
            of: injector,
            scopes: InjectorActor.callerRunsInSharedConstruction ? nil : scopes,
            clock: Clock(timeout: timeout)
        )
    }

    /// Ends the drain without suspending when there is nothing to wait for — no scope open but the
    /// caller's, no construction in flight, as most request scopes end — setting the shutdown
    /// flag; `nil` when ``run()`` must wait. Synchronous: an asynchronous call costs every request
    /// that disposes something a frame from the task's allocator.
    func endWithoutWaiting() -> End? {
        guard scopes == nil else { return nil }
        // No construction starts after the flag is set (a claimant checks it after claiming);
        // those already running record their values for disposal as they finish.
        injector.shutdownFlag.set()
        return injector.outcomesInFlightExceptTheCaller.isEmpty ? .finished : nil
    }

    /// Waits for the open scopes, then for the constructions in flight (but those the caller runs
    /// inside), until the deadline.
    nonisolated(nonsending) func run() async -> End {
        let end = await waitForScopes()
        guard case .finished = end else { return end }
        injector.shutdownFlag.set()
        let inFlight = injector.outcomesInFlightExceptTheCaller
        guard !inFlight.isEmpty else { return .finished }
        return await wait { [injector] in
            for construction in inFlight {
                _ = try? await construction.value()
                try Task.checkCancellation()
            }
            // A construction a start gave up meanwhile: its task may still use the singletons.
            // One that has ended leaves the list, so this ends when they all have.
            while let end = injector.abandonedWorkExceptTheCaller.lazy.compactMap({ $0.endOfRun() }).first {
                _ = try? await end.value()
                try Task.checkCancellation()
            }
        }
    }

    /// Waits for the open scopes (but the caller's) until the deadline.
    nonisolated(nonsending) func waitForScopes() async -> End {
        guard let scopes else { return .finished }
        return await wait { try await scopes.value() }
    }

    /// Runs `work` (which throws only when cancelled) until it ends, the deadline passes or the
    /// caller is cancelled.
    private nonisolated(nonsending) func wait(for work: @escaping @Sendable () async throws -> Void) async -> End {
        guard let deadline = clock?.deadline else {
            do {
                try await work()
                return .finished
            } catch {
                return .cancelled
            }
        }
        // `true` when the work ended, `false` at the deadline, `nil` when cancelled.
        let ended = await withTaskGroup(of: Bool?.self) { group in
            group.addTask {
                do {
                    try await work()
                    return true
                } catch {
                    return nil
                }
            }
            group.addTask {
                do {
                    try await Task.sleep(until: deadline, clock: .continuous)
                    return false
                } catch {
                    return nil
                }
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
        switch ended {
        case true?: return .finished
        case false?: return Task.isCancelled ? .cancelled : .timedOut(report())
        case nil: return .cancelled
        }
    }

    /// What the deadline cut short: the request scopes still open but the caller's, and the
    /// singletons still being built, each with the chain of constructions it waits on.
    private func report() -> InjectionError {
        let open =
            injector.isScope
            ? 0 : injector.openScopes.openCount - injector.callerScopeIDs.count
        // The constructions in flight, and those a start gave up whose tasks still run.
        let stuck =
            (injector.singletonCells.compactMap(\.construction)
            + injector.shutdownState.abandonedWorkInFlight(excluding: []))
            .map(WaitGraph.chain(from:))
        return .drainTimedOut(after: clock?.timeout ?? .zero, openScopes: max(0, open), stuck: stuck)
    }
}
