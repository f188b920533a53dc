/// The current injector: a task-local value, with a process-wide default.
///
/// Like swift-log's task-local logger or ServiceContext, the current injector follows structured
/// concurrency: child tasks (`async let`, task groups, `Task {}`) inherit it; `Task.detached` does
/// not — capture it with ``detachedTask(priority:operation:)`` instead.
extension InjectorActor {
    /// The task-local behind ``current``; inlinable code binds it with `withValue`.
    @usableFromInline static let currentLocal = TaskLocal<InjectorActor?>(wrappedValue: nil)

    /// The injector the task bound, if any.
    static var taskCurrent: InjectorActor? { currentLocal.get() }

    private static let processDefault = Lock<InjectorActor?>(nil)

    /// The injector bound to the current task by ``withCurrent(_:isolation:operation:)`` or
    /// ``withScope(modules:_:)``, else the process default set by ``setDefault(_:)`` (Objection's
    /// default injector), else `nil`.
    ///
    /// ```swift
    /// guard let injector = InjectorActor.current else { return }
    /// let clock = try await injector.get((any Clock).self)
    /// ```
    public static var current: InjectorActor? {
        taskCurrent ?? processDefault.withLock { $0 }
    }

    /// The request scope the current task serves: the nearest scope of the task's current
    /// injector, or `nil` outside ``withScope(modules:_:)``. Unlike ``current`` it never falls
    /// back to the process default, so request code can tell "no request" from "the root".
    ///
    /// ```swift
    /// guard let request = InjectorActor.currentScope else { throw HTTPError(.internalServerError) }
    /// let user = try await request.get(AuthenticatedUser.self)
    /// ```
    public static var currentScope: InjectorActor? {
        taskCurrent?.nearestScope
    }

    /// Runs `operation` with `injector` as the task's ``current`` injector. The binding is visible
    /// to child tasks of `operation`, and to nothing else: a sibling task never sees it.
    ///
    /// ```swift
    /// try await InjectorActor.withCurrent(testInjector) {
    ///     try await handler.run()   // code below uses InjectorActor.current
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - injector: The injector to make current.
    ///   - operation: The work to run.
    ///   - isolation: Where `operation` runs: the caller's actor, by default, so that binding the
    ///     injector costs no executor switch.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    @inlinable
    public static func withCurrent<T>(
        _ injector: InjectorActor,
        isolation: isolated (any Actor)? = #isolation,
        operation: nonisolated(nonsending) () async throws -> T
    ) async rethrows -> T {
        // Capturing `isolation` keeps the operation on the caller's executor; without it the
        // closure would be nonisolated and hop to the global executor and back.
        try await currentLocal.withValue(
            injector,
            operation: {
                _ = isolation
                return try await operation()
            },
            isolation: isolation
        )
    }

    /// Sets the process-wide default injector, the fallback of ``current`` (Objection's
    /// `setDefaultInjector:`). Setting it again replaces it; `nil` clears it.
    ///
    /// ```swift
    /// let root = try await InjectorActor(modules: [AppModule()])
    /// InjectorActor.setDefault(root)
    /// ```
    ///
    /// Replacing the default neither shuts the previous injector down nor changes tasks that
    /// bound an injector with ``withCurrent(_:isolation:operation:)`` or ``withScope(modules:_:)``: those
    /// take precedence over it. The default is one value for the whole process, so code that
    /// swaps it for a while should put the returned previous default back:
    ///
    /// ```swift
    /// let previous = InjectorActor.setDefault(migrationInjector)
    /// defer { InjectorActor.setDefault(previous) }
    /// ```
    ///
    /// - Parameter injector: The new default injector, or `nil` for none.
    /// - Returns: The default injector it replaced, or `nil` if there was none.
    @discardableResult
    public static func setDefault(_ injector: InjectorActor?) -> InjectorActor? {
        processDefault.withLock { current in
            let previous = current
            current = injector
            return previous
        }
    }

    /// Starts a detached task that keeps the caller's ``current`` injector and, inside a
    /// provider, its resolution path, which `Task.detached` alone would drop: a provider that
    /// awaits such a task which needs the provider's own key ends in
    /// ``InjectionError/Code/circularDependency``, as with `Task {}`, instead of waiting on itself.
    ///
    /// ```swift
    /// InjectorActor.detachedTask {
    ///     try await InjectorActor.current?.get(Reporter.self).flush()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - priority: The task's priority.
    ///   - operation: The work to run.
    /// - Returns: The detached task.
    @discardableResult
    public static func detachedTask<T: Sendable>(
        priority: TaskPriority? = nil,
        operation: @escaping @Sendable () async throws -> T
    ) -> Task<T, any Error> {
        let captured = taskCurrent
        let path = ResolutionFrame.current
        return Task.detached(priority: priority) {
            try await ResolutionFrame.$current.withValue(path) {
                guard let captured else { return try await operation() }
                return try await currentLocal.withValue(captured) { try await operation() }
            }
        }
    }
}
