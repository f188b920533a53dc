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
    /// error, and ``shutdown(within:)`` does not wait for them. A value one of them builds after all is
    /// never handed out; it is disposed with the injector's other values (at once if the injector
    /// has shut down). The injector stays usable: the next `get` of such a singleton builds it
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

    /// Builds ``startupBindings``, failing with ``InjectionError/Code/timedOut`` after `timeout`.
    ///
    /// Whatever ends startup early — the deadline, a provider's error, the caller's cancellation
    /// (a process stopped while starting) — gives up the constructions startup is still waiting
    /// on: their tasks are cancelled, their waiters get the same error, the next `get` builds
    /// again, and shutdown does not wait for them. A value one of them builds after all is
    /// disposed with the injector's other values, never handed out.
    nonisolated func buildStartupSingletons(within timeout: Duration?) async throws {
        let bindings = startupBindings
        guard !bindings.isEmpty else { return }
        // An observer of successes hears the startup as one event that the singletons it builds
        // name as their parent; the identity travels in a step of its own above them.
        let observer = observesSuccesses ? observing?.observer : nil
        let id = observer.map { _ in ObservedConstruction.ID.next() }
        let start = ContinuousClock.now
        if let observer, let id { observer.startupStarted(id, singletons: bindings.count) }
        do {
            try await build(bindings, within: timeout, below: id.map(ResolutionFrame.startup))
            if let observer, let id { observer.startupFinished(id, duration: .now - start, error: nil) }
        } catch {
            let givenUp = WaitGraph.reachable(from: bindings.compactMap { $0.cell?.construction })
            for cell in singletonCells {
                guard let construction = cell.construction, givenUp.contains(ObjectIdentifier(construction)) else {
                    continue
                }
                construction.cancel()
                cell.fail(construction, with: error)
            }
            if let observer, let id { observer.startupFinished(id, duration: .now - start, error: error) }
            throw error
        }
    }

    /// Builds `bindings`, singletons, concurrently, failing after `timeout` if they are not all
    /// built by then. A timeout of ``longestDeadline`` or more is none: the clock cannot count
    /// that far (a sleep that long traps), and nothing waits that long anyway.
    private nonisolated func build(
        _ bindings: [Binding],
        within timeout: Duration?,
        below parent: ResolutionFrame?
    ) async throws {
        guard let timeout, timeout < Self.longestDeadline else { return try await build(bindings, below: parent) }
        let finished = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await self.build(bindings, below: parent)
                return true
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return false
            }
            defer { group.cancelAll() }
            return try await group.next() ?? true
        }
        let unbuilt = bindings.filter { $0.cell?.isBuilt != true }
        guard !finished, !unbuilt.isEmpty else { return }
        throw InjectionError.startupTimedOut(
            after: timeout,
            stuck: unbuilt.map { binding in binding.cell?.construction.map(WaitGraph.chain(from:)) ?? [binding.key] }
        )
    }

    /// The longest startup deadline kept: a hundred years (365-day years).
    static let longestDeadline = Duration.seconds(100 * 365 * 24 * 3600)

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
