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
    /// When the deadline passes, the constructions still running are cancelled, and ``shutdown()``
    /// no longer waits for them: what they build after all is disposed as soon as it is built.
    /// The injector stays usable; a later `get` of a singleton that failed builds it again.
    ///
    /// - Parameter timeout: How long the constructions may take; `nil` for no deadline.
    /// - Throws: ``InjectionError/Code/timedOut`` naming each singleton still being built and the
    ///   chain of constructions it was waiting on; otherwise the first provider error, unchanged.
    ///   Unlike a failed creation, a failed start disposes nothing: call ``shutdown()``.
    public nonisolated func start(within timeout: Duration? = nil) async throws {
        try checkNotShutDown()
        try await buildStartupSingletons(within: timeout)
    }

    /// Builds ``startupBindings``, failing with ``InjectionError/Code/timedOut`` after `timeout`.
    /// A caller cancelled meanwhile (a process stopped during startup) abandons the constructions
    /// still running, as a deadline does, so that shutdown does not wait for them.
    nonisolated func buildStartupSingletons(within timeout: Duration?) async throws {
        do {
            try await buildStartupSingletons(startupBindings, within: timeout)
        } catch {
            if Task.isCancelled {
                for (_, construction) in constructionsInFlight { construction.abandon() }
            }
            throw error
        }
    }

    private nonisolated func buildStartupSingletons(_ bindings: [Binding], within timeout: Duration?) async throws {
        guard !bindings.isEmpty else { return }
        guard let timeout else { return try await build(bindings) }
        let finished = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await self.build(bindings)
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
        let stuck = bindings.compactMap { binding in binding.cell?.construction.map(WaitGraph.chain(from:)) }
        // A construction that ended between the deadline and this check is not stuck.
        guard !stuck.isEmpty else { return }
        for (_, construction) in constructionsInFlight { construction.abandon() }
        throw InjectionError.startupTimedOut(after: timeout, stuck: stuck)
    }

    /// Builds `bindings`, singletons, concurrently; the first failure cancels the others' waits.
    private nonisolated func build(_ bindings: [Binding]) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for binding in bindings {
                group.addTask { try await binding.producer.resolve(in: self, binding: binding) }
            }
            try await group.waitForAll()
        }
    }
}
