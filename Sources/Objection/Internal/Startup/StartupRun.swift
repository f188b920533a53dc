/// One start-up of an injector: builds its startup singletons (``InjectorActor/startupBindings``:
/// the eager ones; in ``Stage/production`` every singleton but those that need runtime
/// arguments, and for a request scope still only the eager ones), independent ones
/// concurrently, after a first step if there is one, failing with
/// ``InjectionError/Code/timedOut`` past a deadline.
///
/// ```swift
/// try await StartupRun(of: injector)?.run(within: .seconds(10))
/// ```
///
/// Whatever ends it early — the deadline, a provider's error, the caller's cancellation (a
/// process stopped while starting) — gives up the constructions it is still waiting on: their
/// tasks are cancelled, their waiters get the same error, and the next `get` builds again. A
/// provider that carries on regardless may still be using other singletons, so a shutdown of the
/// injector waits for its task (up to its deadline) before it disposes them, as it waits for a
/// construction in flight — but for the shutdown of a creation that failed, whose caller asked
/// for a start bounded by its deadline. A value one of them builds after all is disposed with the
/// injector's other values, never handed out.
struct StartupRun: Sendable {
    /// What a two-step start builds and runs before the startup singletons: `key`'s value,
    /// handed to the host.
    struct Prelude: Sendable {
        let key: BindingKey
        let run: @Sendable (ResolutionFrame?) async throws -> Void
    }

    /// The injector that starts.
    let injector: InjectorActor
    /// The singletons it builds.
    let bindings: [Binding]
    /// What it runs first, if anything.
    let first: Prelude?
    /// Whether the first step has run (at once, without one): until it has, what start-up is
    /// building is any singleton's construction, eager or not.
    let firstDone: Lock<Bool>

    /// The start-up of `injector`, after `first` if given; `nil` when it has nothing to build or
    /// run, as most children and every request scope opened with modules: no lock is made for it.
    init?(of injector: InjectorActor, first: Prelude? = nil) {
        let bindings = injector.startupBindings
        guard !bindings.isEmpty || first != nil else { return nil }
        self.injector = injector
        self.bindings = bindings
        self.first = first
        self.firstDone = Lock(first == nil)
    }

    /// Runs the start-up, within `timeout` when one is given (``InjectorActor/longestDeadline``
    /// or more is none). An observer of successes hears it as one event that the singletons it
    /// builds name as their parent; the identity travels in a step of its own above them.
    func run(within timeout: Duration?) async throws {
        let observer = injector.observing.flatMap { $0.observesSuccesses ? $0.observer : nil }
        let id = observer.map { _ in ObservedConstruction.ID.next() }
        let start = ContinuousClock.now
        if let observer, let id { observer.startupStarted(id, singletons: bindings.count) }
        do {
            try await build(within: timeout, below: id.map(ResolutionFrame.startup))
            if let observer, let id { observer.startupFinished(id, duration: .now - start, error: nil) }
        } catch {
            giveUp(failing: error)
            if let observer, let id { observer.startupFinished(id, duration: .now - start, error: error) }
            throw error
        }
    }

    /// Gives up what start-up was building when it ended with `error`: each construction it
    /// was waiting on, directly or through others, fails with `error` and its task is cancelled.
    private func giveUp(failing error: any Error) {
        let cells = injector.singletonCells
        // Ended in the first step: what it was building is any singleton's construction.
        let building = firstDone.withLock { $0 } ? bindings.compactMap(\.lifetime.cell) : cells
        let givenUp = WaitGraph.reachable(from: building.compactMap(\.construction))
        for cell in cells {
            guard let construction = cell.construction, givenUp.contains(ObjectIdentifier(construction)) else {
                continue
            }
            // Counted before the cell fails: a drain waiting on the cell then finds it.
            injector.shutdownState.countAsWorkInFlight(construction)
            // Failed first: its waiters get the deadline's error, and the task, once cancelled,
            // ends a construction that is no longer current.
            cell.fail(construction, with: error)
            construction.cancel()
        }
    }

    /// Runs the first step (setting ``firstDone`` once it has run), then builds the singletons,
    /// failing after `timeout` if they are not all built by then (``TimeBox``).
    private func build(within timeout: Duration?, below parent: ResolutionFrame?) async throws {
        let steps: @Sendable () async throws -> Void = {
            try await first?.run(parent)
            firstDone.withLock { $0 = true }
            try await buildSingletons(below: parent)
        }
        guard let timeout else { return try await steps() }
        if try await !TimeBox.run(within: timeout, steps), let error = timedOut(after: timeout) { throw error }
    }

    /// The error of a start-up still building after `timeout`, naming what it waits on; `nil`
    /// when all was built as the deadline passed.
    private func timedOut(after timeout: Duration) -> InjectionError? {
        if let first, !firstDone.withLock({ $0 }) {
            // Whatever singleton the first step is building, eager or not.
            let building = injector.singletonCells.compactMap {
                $0.construction.map { (WaitGraph.chain(from: $0), true) }
            }
            return InjectionError.startupTimedOut(
                after: timeout, stuck: building.isEmpty ? [([first.key], false)] : building)
        }
        let unbuilt = bindings.filter { $0.lifetime.cell?.isBuilt != true }
        guard !unbuilt.isEmpty else { return nil }
        return InjectionError.startupTimedOut(
            after: timeout,
            stuck: unbuilt.map { binding in
                binding.lifetime.cell?.construction.map { (WaitGraph.chain(from: $0), true) } ?? ([binding.key], false)
            }
        )
    }

    /// Builds the singletons concurrently; the first failure ends the others' waits.
    private func buildSingletons(below parent: ResolutionFrame?) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for binding in bindings {
                group.addTask {
                    _ = try await binding.producer.resolve(in: injector, binding: binding, below: parent)
                }
            }
            while try await group.next() != nil {}
        }
    }
}
