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
        try await StartupRun(of: self)?.run(within: timeout)
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
        let prelude = StartupRun.Prelude(key: key) { parent in
            try await run(try await self.resolveIfBound(key, as: First.self, below: parent))
        }
        try await StartupRun(of: self, first: prelude)?.run(within: timeout)
        setStartupPending(false)
    }

    /// The longest deadline kept — of a startup, a drain, a refresh, a health check, and of the
    /// integrations' shutdown bounds: a hundred years (365-day years). A deadline this long or
    /// longer is none: `Task.sleep` traps past `Int64` nanoseconds, so none is slept.
    ///
    /// ```swift
    /// try await injector.start(within: InjectorActor.longestDeadline)   // waits as long as it takes
    /// ```
    public static let longestDeadline = Duration.seconds(100 * 365 * 24 * 3600)
}
