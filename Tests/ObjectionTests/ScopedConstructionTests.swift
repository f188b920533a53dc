import Testing

@testable import Objection

@Suite("Scoped construction within one request", .hangLimit)
struct ScopedConstructionTests {
    final class Connection: Sendable {}

    @TaskLocal static var traceID: String?

    @Test("concurrent tasks of one request build a scoped instance once and share it")
    func exactlyOncePerScope() async throws {
        let built = Counter()
        let release = Gate()
        let root = try await makeInjector { binder in
            binder.bind(Connection.self).to { _ in
                built.increment()
                await release.wait()
                return Connection()
            }.inScope(.scoped)
        }
        try await root.withScope { request in
            let connections = try await withThrowingTaskGroup(of: Connection.self) { group in
                for _ in 0..<100 { group.addTask { try await request.get(Connection.self) } }
                await waitUntil { built.value == 1 }
                release.open()
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(connections.map(ObjectIdentifier.init)).count == 1)
        }
        #expect(built.value == 1)
    }

    /// A scoped `Connection` built without suspending, whose initializer, on its first run,
    /// opens `entered` and blocks its thread until `release` opens. ``start(in:)`` runs the build
    /// on a thread of its own, so the test goes on, on the pool, while it is blocked.
    struct BlockedInPlaceBuild {
        let executor = DedicatedThreadExecutor()
        let entered = Gate()
        let release = Latch()
        let attempts = Counter()
        let disposed = Log()

        /// An injector that binds `Connection` so; its first build fails when `fails`.
        func injector(failing fails: Bool = false) async throws -> InjectorActor {
            let (entered, release, attempts, disposed) = (entered, release, attempts, disposed)
            return try await makeInjector { binder in
                binder.bind(Connection.self).to { () throws -> Connection in
                    let attempt = attempts.increment()
                    if attempt == 1 {
                        entered.open()
                        release.wait()
                        if fails { throw ProviderFailure(attempt: attempt) }
                    }
                    return Connection()
                }.inScope(.scoped).onDispose { _ in disposed.append("connection") }
            }
        }

        /// Starts the build in `scope`, and returns once its initializer is blocked.
        func start(in scope: InjectorActor) async -> Task<Connection, any Error> {
            let builder = Task(executorPreference: executor) { try await scope.get(Connection.self) }
            await entered.wait()
            return builder
        }
    }

    @Test(
        "a task that arrives while another builds a scoped instance without suspending waits for that build",
        arguments: [false, true]
    )
    func waitsForInPlaceBuild(fails: Bool) async throws {
        let build = BlockedInPlaceBuild()
        let root = try await build.injector(failing: fails)
        let binding = try #require(try root.binding(for: BindingKey(Connection.self), as: Connection.self))
        #expect(binding.isSynchronous)
        try await withDeadline {
            try await root.withScope { request in
                let builder = await build.start(in: request)
                // Built in place: nobody has named the construction yet.
                #expect(request.slot(for: binding)?.construction == nil)
                let waiter = Task { try await request.get(Connection.self) }
                await waitUntil { request.slot(for: binding)?.construction?.joins == 1 }
                build.release.open()
                if fails {
                    await #expect(throws: ProviderFailure(attempt: 1)) { try await builder.value }
                    await #expect(throws: ProviderFailure(attempt: 1)) { try await waiter.value }
                    // Not cached: the next get builds it.
                    _ = try await request.get(Connection.self)
                    #expect(build.attempts.value == 2)
                } else {
                    let (built, waited) = try await (builder.value, waiter.value)
                    #expect(built === waited)
                    #expect(build.attempts.value == 1)
                }
            }
        }
    }

    @Test("a scope's end waits for a scoped instance being built in place, and disposes it")
    func endWaitsForInPlaceBuild() async throws {
        let build = BlockedInPlaceBuild()
        let root = try await build.injector()
        let scopes = Lock<InjectorActor?>(nil)
        try await withDeadline {
            let request = Task {
                try await root.withScope { scope in
                    scopes.withLock { $0 = scope }
                    // Escapes the body: still building when the body returns.
                    _ = await build.start(in: scope)
                }
            }
            await waitUntil { scopes.withLock { $0 }?.isShutDown == true }
            build.release.open()
            try await request.value
            #expect(build.disposed.values == ["connection"])
        }
    }

    @Test(
        "a cancelled scope's end does not wait for a build in place; its value reaches both tasks, then is disposed"
    )
    func cancelledEndLeavesDisposalToBackground() async throws {
        let build = BlockedInPlaceBuild()
        let root = try await build.injector()
        let binding = try #require(try root.binding(for: BindingKey(Connection.self), as: Connection.self))
        let escaped = Lock<(builder: Task<Connection, any Error>, waiter: Task<Connection, any Error>)?>(nil)
        try await withDeadline {
            let request = Task {
                try await root.withScope { scope in
                    let builder = await build.start(in: scope)
                    let waiter = Task { try await scope.get(Connection.self) }
                    await waitUntil { scope.slot(for: binding)?.construction?.joins == 1 }
                    escaped.withLock { $0 = (builder, waiter) }
                    // The scope ends in a cancelled task, which does not wait for the build.
                    withUnsafeCurrentTask { $0?.cancel() }
                }
            }
            // Returns with the build still blocked: the end does not wait for it.
            try await request.value
            let tasks = try #require(escaped.withLock { $0 })
            #expect(build.disposed.values.isEmpty)
            build.release.open()
            // The disposal, left to the background, waited for the build: as in a shutdown that
            // waits, the value built reaches who asked for it and is disposed after.
            let built = try await tasks.builder.value
            #expect(try await tasks.waiter.value === built)
            await waitUntil { build.disposed.values == ["connection"] }
        }
    }

    @Test("a request scope's lock is the first field of its storage's header, where lock(in:) reads it")
    func lockAtHeaderStart() {
        #expect(MemoryLayout<RequestStorage.Header>.offset(of: \.lock) == 0)
    }

    @Test("a scoped provider's failure reaches the request's waiters and is not cached")
    func failuresShared() async throws {
        let attempts = Counter()
        let release = Gate()
        let root = try await makeInjector { binder in
            binder.bind(Connection.self).to { _ in
                let attempt = attempts.increment()
                if attempt == 1 {
                    await release.wait()
                    throw ProviderFailure(attempt: attempt)
                }
                return Connection()
            }.inScope(.scoped)
        }
        try await root.withScope { request in
            let results = await withTaskGroup(of: Result<Connection, any Error>.self) { group in
                for _ in 0..<20 { group.addTask { await outcome { try await request.get(Connection.self) } } }
                await waitUntil { attempts.value == 1 }
                release.open()
                return await group.reduce(into: []) { $0.append($1) }
            }
            let failures = results.filter { if case .failure = $0 { true } else { false } }
            #expect(!failures.isEmpty)
            for failure in failures {
                #expect(throws: ProviderFailure(attempt: 1)) { try failure.get() }
            }
            let connection = try await request.get(Connection.self)
            #expect(try await request.get(Connection.self) === connection)
        }
    }

    @Test("a scoped instance is built in the request's task and sees its task-local values")
    func seesRequestContext() async throws {
        let seen = Log()
        let root = try await makeInjector { binder in
            binder.bind(Connection.self).to { _ in
                seen.append(Self.traceID ?? "none")
                return Connection()
            }.inScope(.scoped)
        }
        try await Self.$traceID.withValue("trace-42") {
            try await root.withScope { request in _ = try await request.get(Connection.self) }
        }
        #expect(seen.values == ["trace-42"])
    }

    @Test("synchronous scoped graphs are built once per scope and disposed at its end")
    func synchronousScopedGraph() async throws {
        final class Context: Sendable {}
        final class Logger: Sendable {
            let context: Context
            init(context: Context) { self.context = context }
        }
        final class LoggingHandler: Sendable {
            let logger: Logger
            let context: Context
            init(logger: Logger, context: Context) {
                self.logger = logger
                self.context = context
            }
        }
        let log = Log()
        let root = try await makeInjector { binder in
            binder.bind(Context.self).to(Context.init).inScope(.scoped).onDispose { _ in log.append("context") }
            binder.bind(Logger.self).to(Logger.init).inScope(.scoped).onDispose { _ in log.append("logger") }
            binder.bind(LoggingHandler.self).to(LoggingHandler.init)
        }
        let (first, second) = try await root.withScope { request in
            try await (request.get(LoggingHandler.self), request.get(LoggingHandler.self))
        }
        #expect(first !== second)
        #expect(first.logger === second.logger && first.context === second.context)
        #expect(first.logger.context === first.context)
        #expect(log.values == ["logger", "context"])
    }

    @Test("a scoped instance is built with its scope's bindings, whoever asks, on both paths")
    func scopedInstanceBuiltWithRequesterTableOnSyncPath() async throws {
        let root = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init)
            binder.bind(Wheel.self).to(Wheel.init)
            binder.bind(Car.self).to(Car.init).inScope(.scoped)
        }
        let spare = Wheel()

        // The child's override suspends: Car takes the asynchronous path and is built by the
        // scope, with the scope's bindings (a scoped build runs its recipe in the scope).
        let asyncWheelIsSpare = try await root.withScope { scope in
            let child = try await scope.child(modules: [
                TestModule { binder in
                    binder.bind(Wheel.self).to { _ in
                        await Task.yield()
                        return spare
                    }
                }
            ])
            _ = try await child.get(Car.self)
            return try await scope.get(Car.self).wheel === spare
        }
        #expect(!asyncWheelIsSpare)

        // The same configuration with an instance override: Car takes the synchronous path,
        // whose SynchronousResolver looks dependencies up in the *child's* table, and the
        // scope's one Car now holds the child's Wheel.
        let syncWheelIsSpare = try await root.withScope { scope in
            let child = try await scope.child(modules: [TestModule { $0.bind(Wheel.self).toInstance(spare) }])
            _ = try await child.get(Car.self)
            return try await scope.get(Car.self).wheel === spare
        }
        #expect(syncWheelIsSpare == asyncWheelIsSpare)
    }

    @Test("scoped cells of short-lived children never mix up bindings")
    func scopedCellsOfShortLivedChildren() async throws {
        let root = try await makeInjector { _ in }
        try await root.withScope { scope in
            for round in 0..<200 {
                if round.isMultiple(of: 2) {
                    let child = try await scope.child(modules: [
                        TestModule { $0.bind(Engine.self).to(Engine.init).inScope(.scoped) }
                    ])
                    _ = try await child.get(Engine.self)
                } else {
                    let child = try await scope.child(modules: [
                        TestModule { $0.bind(Wheel.self).to(Wheel.init).inScope(.scoped) }
                    ])
                    _ = try await child.get(Wheel.self)
                }
            }
        }
    }
}
