/// Startup: building the eager singletons (in ``Stage/production``, every singleton), within a
/// deadline when one is given.
extension InjectorActor {
    /// Builds this injector's eager singletons — in ``Stage/production``, every singleton it
    /// declares — independent ones concurrently, within `timeout` when one is given.
    ///
    /// An injector created with ``Startup/deferred`` builds nothing at creation: start the
    /// services its singletons need (a database client's `run()`), then call this. Calling it
    /// again, or on an injector that started at creation, builds nothing new.
    ///
    /// ```swift
    /// let injector = try await InjectorActor(modules: [AppModule()], startup: .deferred)
    /// group.addTask { await client.run() }
    /// try await injector.start(within: .seconds(10))
    /// ```
    ///
    /// When the deadline passes, startup gives up the constructions it is waiting on: their tasks
    /// are cancelled, callers waiting for them get the same ``InjectionError/Code/timedOut``
    /// error. A provider that carries on regardless may still use other singletons, so
    /// ``shutdown(within:)`` waits for its task, up to the shutdown's deadline, before it disposes
    /// them. A value one of them builds after all is never handed out; it is disposed with the
    /// injector's other values (at once if the injector has shut down). The injector stays usable: the next `get` of such a singleton builds it
    /// again. A provider's error or the caller's cancellation ends startup the same way.
    ///
    /// - Parameter timeout: How long the constructions may take; `nil` (or a hundred years or
    ///   more) for no deadline.
    /// - Throws: ``InjectionError/Code/timedOut`` naming each singleton still being built and the
    ///   chain of constructions it was waiting on; otherwise the first provider error, unchanged.
    ///   Unlike a failed creation, a failed start disposes nothing: call ``shutdown(within:)``.
    public nonisolated func start(within timeout: Duration? = nil) async throws {
        try checkNotShutDown()
        try await buildStartupSingletons(within: timeout)
        setStartupPending(false)
    }

    /// Starts in two steps, as one startup: builds `first` — what the eager singletons need
    /// running, such as a database client, or the services of a lifecycle — and hands it to
    /// `run`, which starts it and returns once it runs; then builds the eager singletons, as
    /// ``start(within:)`` does.
    ///
    /// Both steps are under the one deadline, and an observer hears one startup that the
    /// constructions of both name as their parent: a host need not resolve its services before
    /// the start, outside its deadline and its trace.
    ///
    /// ```swift
    /// let injector = try await InjectorActor(modules: [AppModule()], startup: .deferred)
    /// try await injector.start(within: .seconds(30), buildingFirst: PostgresClient.self) { client in
    ///     if let client { group.addTask { await client.run() } }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - timeout: How long both steps may take; `nil` for no deadline.
    ///   - first: The type to build first; `nil` is handed to `run` when it is not bound.
    ///   - name: Its name, if it is bound under one.
    ///   - run: Starts what was built, and returns once it runs; cancelled when the deadline
    ///     passes.
    /// - Throws: As ``start(within:)``; past the deadline in the first step,
    ///   ``InjectionError/Code/timedOut`` names the singletons it was building, or `first` itself
    ///   when `run` had not returned. An error `run` throws ends the start unchanged.
    public nonisolated func start<First: Sendable>(
        within timeout: Duration? = nil,
        buildingFirst first: First.Type,
        named name: String? = nil,
        then run: @escaping @Sendable (First?) async throws -> Void
    ) async throws {
        try checkNotShutDown()
        let key = BindingKey(first, named: name)
        try await buildStartupSingletons(
            within: timeout,
            first: StartupPrelude(key: key) { parent in
                try await run(try await self.resolveIfBound(key, as: First.self, below: parent))
            }
        )
        setStartupPending(false)
    }

    /// What a two-step start builds and runs before the eager singletons: `key`'s value, handed
    /// to the host.
    struct StartupPrelude: Sendable {
        let key: BindingKey
        let run: @Sendable (ResolutionFrame?) async throws -> Void
    }

    /// Builds ``startupBindings``, after `first` if there is one, failing with
    /// ``InjectionError/Code/timedOut`` after `timeout`.
    ///
    /// Whatever ends startup early — the deadline, a provider's error, the caller's cancellation
    /// (a process stopped while starting) — gives up the constructions startup is still waiting
    /// on: their tasks are cancelled, their waiters get the same error, and the next `get` builds
    /// again. A provider that carries on regardless may still be using other singletons, so a
    /// shutdown of the injector waits for its task (up to its deadline) before it disposes them,
    /// as it waits for a construction in flight — but for the shutdown of a creation that failed,
    /// whose caller asked for a start bounded by its deadline. A value one of them builds after
    /// all is disposed with the injector's other values, never handed out.
    nonisolated func buildStartupSingletons(within timeout: Duration?, first: StartupPrelude? = nil) async throws {
        let bindings = startupBindings
        guard !bindings.isEmpty || first != nil else { return }
        // An observer of successes hears the startup as one event that the singletons it builds
        // name as their parent; the identity travels in a step of its own above them.
        let observer = observing.flatMap { $0.observesSuccesses ? $0.observer : nil }
        let id = observer.map { _ in ObservedConstruction.ID.next() }
        let start = ContinuousClock.now
        if let observer, let id { observer.startupStarted(id, singletons: bindings.count) }
        let firstDone = Lock(first == nil)
        do {
            try await build(
                bindings, after: first, done: firstDone, within: timeout, below: id.map(ResolutionFrame.startup))
            if let observer, let id { observer.startupFinished(id, duration: .now - start, error: nil) }
        } catch {
            // Ended in the first step: what it was building is any singleton's construction.
            let building = firstDone.withLock { $0 } ? bindings.compactMap(\.lifetime.cell) : singletonCells
            let givenUp = WaitGraph.reachable(from: building.compactMap(\.construction))
            for cell in singletonCells {
                guard let construction = cell.construction, givenUp.contains(ObjectIdentifier(construction)) else {
                    continue
                }
                // Counted before the cell fails: a drain waiting on the cell then finds it.
                countAsWorkInFlight(construction)
                // Failed first: its waiters get the deadline's error, and the task, once cancelled,
                // ends a construction that is no longer current.
                cell.fail(construction, with: error)
                construction.cancel()
            }
            if let observer, let id { observer.startupFinished(id, duration: .now - start, error: error) }
            throw error
        }
    }

    /// Counts the task of `construction`, which a start gave up, as work in flight until it ends
    /// (``ShutdownState/abandonedWork``): shutdown waits for it before it disposes the singletons
    /// it may be using.
    private nonisolated func countAsWorkInFlight(_ construction: Construction) {
        shutdownState.withLock { $0.abandonedWork.append(construction) }
    }

    /// The constructions a start gave up whose tasks still run, but those of `excluded` (a
    /// provider that shuts its own injector down is not waited for by that call); forgets those
    /// that have ended. Each one's ``Construction/endOfRun()`` is what a shutdown waits for.
    nonisolated func abandonedWorkInFlight(excluding excluded: [Construction]) -> [Construction] {
        let running = shutdownState.withLock { state in
            state.abandonedWork.removeAll { $0.hasEnded }
            return state.abandonedWork
        }
        return running.filter { construction in !excluded.contains { $0 === construction } }
    }

    /// Runs `first` (setting `firstDone` once it has run), then builds `bindings`, singletons,
    /// concurrently, failing after `timeout` if they are not all built by then. A timeout of ``longestDeadline`` or more is none: the
    /// clock cannot count that far (a sleep that long traps), and nothing waits that long anyway.
    private nonisolated func build(
        _ bindings: [Binding],
        after first: StartupPrelude?,
        done firstDone: Lock<Bool>,
        within timeout: Duration?,
        below parent: ResolutionFrame?
    ) async throws {
        let steps: @Sendable () async throws -> Void = {
            try await first?.run(parent)
            firstDone.withLock { $0 = true }
            try await self.build(bindings, below: parent)
        }
        guard let timeout, timeout < Self.longestDeadline else { return try await steps() }
        let finished = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await steps()
                return true
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return false
            }
            defer { group.cancelAll() }
            return try await group.next() ?? true
        }
        guard !finished else { return }
        if let first, !firstDone.withLock({ $0 }) {
            // Whatever singleton the first step is building, eager or not.
            let building = singletonCells.compactMap { $0.construction.map { (WaitGraph.chain(from: $0), true) } }
            throw InjectionError.startupTimedOut(
                after: timeout, stuck: building.isEmpty ? [([first.key], false)] : building)
        }
        let unbuilt = bindings.filter { $0.lifetime.cell?.isBuilt != true }
        guard !unbuilt.isEmpty else { return }
        throw InjectionError.startupTimedOut(
            after: timeout,
            stuck: unbuilt.map { binding in
                binding.lifetime.cell?.construction.map { (WaitGraph.chain(from: $0), true) } ?? ([binding.key], false)
            }
        )
    }

    /// The longest deadline kept — of a startup, a drain, a refresh, a health check, and of the
    /// integrations' shutdown bounds: a hundred years (365-day years). A deadline this long or
    /// longer is none: `Task.sleep` traps past `Int64` nanoseconds, so none is slept.
    ///
    /// ```swift
    /// try await injector.start(within: InjectorActor.longestDeadline)   // waits as long as it takes
    /// ```
    public static let longestDeadline = Duration.seconds(100 * 365 * 24 * 3600)

    /// Builds `bindings`, singletons, concurrently; the first failure ends the others' waits.
    private nonisolated func build(_ bindings: [Binding], below parent: ResolutionFrame?) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for binding in bindings {
                group.addTask { _ = try await binding.producer.resolve(in: self, binding: binding, below: parent) }
            }
            while try await group.next() != nil {}
        }
    }
}
