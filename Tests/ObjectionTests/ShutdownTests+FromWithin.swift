import Testing

@testable import Objection

/// Shutdown reached from inside the injector's own work — a dispose hook, a provider, a scoped
/// provider — and by tasks that outlive their request: each ends in an error, never a hang.
extension ShutdownTests {
    /// Where a dispose hook calls its injector's shutdown from.
    enum HookCaller: String, CaseIterable, Sendable {
        case itself, asyncLet, taskGroup, unstructuredTask, nestedInjectorsHook

        /// Runs `call` from this place, and waits for it.
        func run(_ call: @escaping @Sendable () async -> Void) async {
            switch self {
            case .itself, .nestedInjectorsHook:
                await call()
            case .asyncLet:
                async let called: Void = call()
                await called
            case .taskGroup:
                await withTaskGroup(of: Void.self) { group in group.addTask { await call() } }
            case .unstructuredTask:
                await Task { await call() }.value
            }
        }
    }

    @Test(
        "a dispose hook that awaits its own injector's shutdown does not hang, from a task it starts too",
        arguments: HookCaller.allCases
    )
    func disposeHookCallsShutdown(from caller: HookCaller) async throws {
        let box = InjectorBox()
        let inner = InjectorBox()
        // The injector's bindings hold the box: let go of the injector at the end, or both leak.
        defer { (box.injector, inner.injector) = (nil, nil) }
        let injector = try await makeInjector { b in
            b.bind(Engine.self).to(Engine.init).asSingleton().onDispose { _ in
                await caller.run {
                    if caller == .nestedInjectorsHook {
                        // Through another injector's hook, which shuts this one down from a child task.
                        _ = await inner.injector?.shutdown(within: nil)
                    } else {
                        _ = await box.injector?.shutdown(within: nil)
                    }
                }
            }
        }
        box.injector = injector
        inner.injector = try await makeInjector { b in
            b.bind(Wheel.self).to(Wheel.init).asSingleton().onDispose { _ in
                await HookCaller.asyncLet.run { _ = await box.injector?.shutdown(within: nil) }
            }
        }
        _ = try await injector.get(Engine.self)
        _ = try await inner.injector?.get(Wheel.self)
        let result = await outcome { try await withDeadline { await injector.shutdown(within: nil) } }
        if case .failure(let error) = result { Issue.record("\(error)") }
    }

    /// Binds a singleton `Engine` whose provider, once `before` has run, shuts `box`'s injector
    /// down.
    private static func bindEngineShuttingDown(
        _ binder: Binder,
        _ box: InjectorBox,
        before: @escaping @Sendable () async -> Void = {}
    ) {
        binder.bind(Engine.self).to { _ in
            await before()
            _ = await box.injector?.shutdown(within: nil)
            return Engine()
        }.asSingleton()
    }

    /// Checks that `result` is what a shut-down injector answers: ``InjectionError/Code/shutDown``.
    private func expectShutDown<T>(_ result: Result<T, any Error>, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .failure(let error) = result else {
            Issue.record("got a value from a shut-down injector", sourceLocation: sourceLocation)
            return
        }
        #expect((error as? InjectionError)?.code == .shutDown, "\(error)", sourceLocation: sourceLocation)
    }

    @Test("a singleton provider that shuts its own injector down does not hang its get")
    func providerCallsShutdown() async throws {
        let box = InjectorBox()
        // The injector's bindings hold the box: let go of the injector at the end, or both leak.
        defer { box.injector = nil }
        let injector = try await makeInjector { Self.bindEngineShuttingDown($0, box) }
        box.injector = injector
        // The construction finishes after the shutdown it started: its value is refused.
        expectShutDown(await outcome { try await withDeadline { try await injector.get(Engine.self) } })
    }

    @Test("a singleton provider that shuts its injector down while a request waits for it: shutDown, not a hang")
    func providerShutsDownWhileARequestWaits() async throws {
        let box = InjectorBox()
        defer { box.injector = nil }
        let injector = try await makeInjector { Self.bindEngineShuttingDown($0, box) }
        box.injector = injector
        expectShutDown(
            await outcome {
                try await withDeadline(seconds: 60) { try await injector.withScope { try await $0.get(Engine.self) } }
            })
    }

    @Test("a singleton provider that shuts its injector down while another construction waits for it: no hang")
    func providerShutsDownWhileAConstructionWaits() async throws {
        let box = InjectorBox()
        defer { box.injector = nil }
        let injector = try await makeInjector { b in
            // Once the Wheel's construction has joined this one, started by a plain get.
            Self.bindEngineShuttingDown(b, box) {
                if let injector = box.injector {
                    await waitUntil { await injector.callersWaiting(for: BindingKey(Engine.self)) >= 2 }
                }
            }
            b.bind(Wheel.self).to { r in
                _ = try await r.get(Engine.self)
                return Wheel()
            }.asSingleton()
        }
        box.injector = injector
        let results = try await withDeadline(seconds: 60) {
            let engine = Task { await outcome { try await injector.get(Engine.self) } }
            await waitUntil { await injector.callersWaiting(for: BindingKey(Engine.self)) >= 1 }
            let wheel = await outcome { try await injector.get(Wheel.self) }
            return [await engine.value.map { _ in () }, wheel.map { _ in () }]
        }
        // Both end, refused: the injector shut down before either value was kept.
        for result in results { expectShutDown(result) }
    }

    @Test("a shutdown from a task a singleton's provider started, once the provider returned, drains as any other")
    func shutdownFromATaskAProviderStarted() async throws {
        let box = InjectorBox()
        defer { box.injector = nil }
        let log = Log()
        let trigger = Gate()
        let watcher = Lock<Task<Void, Never>?>(nil)
        let injector = try await makeInjector { b in
            b.bind(Resource.self).to { _ in Resource("engine disposed", log: log) }.asSingleton()
            b.bind(Engine.self).to { _ in
                // Suspends, so that its step is published and the watcher inherits it.
                await Task.yield()
                // A watcher that outlives the provider, and shuts the injector down later.
                watcher.withLock {
                    $0 = Task {
                        await trigger.wait(); _ = await box.injector?.shutdown(within: nil)
                    }
                }
                return Engine()
            }.asSingleton()
        }
        box.injector = injector
        _ = try await injector.get(Engine.self)
        _ = try await injector.get(Resource.self)
        let inScope = Gate()
        let release = Gate()
        let request = Task {
            try await injector.withScope { scope in
                inScope.open()
                await release.wait()
                _ = try await scope.get(Resource.self)
                log.append("scope ended")
            }
        }
        await inScope.wait()
        trigger.open()
        await waitUntil { injector.phase != .running }
        release.open()
        // The drain waited for the request: it read the singleton before it was disposed.
        try await request.value
        await watcher.withLock { $0 }?.value
        #expect(log.values == ["scope ended", "engine disposed"])
    }

    @Test("a scoped provider that awaits its scope's end does not hang")
    func scopedProviderAwaitsScopeShutdown() async throws {
        let injector = try await makeInjector { b in
            b.bind(Engine.self).to { _ in
                _ = await InjectorActor.current?.shutdown(within: nil)
                return Engine()
            }.inScope(.scoped)
        }
        let result = await outcome {
            try await withDeadline { try await injector.withScope(values: { _ in }) { try await $0.get(Engine.self) } }
        }
        guard case .failure(let error) = result else {
            Issue.record("got a value from an ended scope")
            return
        }
        #expect((error as? InjectionError)?.code == .shutDown, "\(error)")
    }

    @Test("a task that outlives its request scope gets shutDown from it, and from InjectorActor.current")
    func taskOutlivesScope() async throws {
        let release = Gate()
        let root = try await makeInjector { b in
            b.bind(CountedResource.self).to(CountedResource.init).inScope(.scoped)
            b.bind(Engine.self).to { _ in
                await Task.yield(); return Engine()
            }.inScope(.scoped)
        }
        let escaped = try await root.withScope(values: { _ in }) { scope in
            _ = try await scope.get(CountedResource.self)
            return Task {
                await release.wait()
                let direct = await outcome { try await scope.get(Engine.self) }
                let current = await outcome { try await InjectorActor.current?.get(CountedResource.self) }
                return (direct, current)
            }
        }
        release.open()
        let (direct, current) = try await withDeadline { await escaped.value }
        #expect(throws: InjectionError.self) { try direct.get() }
        #expect(throws: InjectionError.self) { try current.get() }
    }

    @Test("a request whose task is cancelled while another task of it builds a scoped instance")
    func cancelledRequestWithEscapedBuilder() async throws {
        let started = Gate()
        let release = Gate()
        let pool = ResourcePool()
        let observer = StrictObserver()
        let root = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(CountedResource.self).to { _ in
                        started.open()
                        await release.wait()
                        return pool.make()
                    }.inScope(.scoped)
                }
            ],
            observer: observer
        )
        let escapedBox = Lock<Task<Result<CountedResource, any Error>, Never>?>(nil)
        let request = Task {
            try await root.withScope(values: { _ in }) { scope in
                escapedBox.withLock { $0 = Task { await outcome { try await scope.get(CountedResource.self) } } }
                await started.wait()
                _ = try await scope.get(CountedResource.self)
            }
        }
        await started.wait()
        request.cancel()
        let requestResult = try await withDeadline { await request.result }
        release.open()
        let escaped = try await withDeadline { await escapedBox.withLock { $0 }!.value }
        if case .success = requestResult { Issue.record("the cancelled request's get should have left") }
        _ = escaped
        try await withDeadline { await waitUntil { pool.made.allSatisfy { $0.disposals.value == 1 } } }
        #expect(pool.made.count <= 1)
        for r in pool.made { #expect(r.disposals.value == 1) }
        #expect(observer.finalProblems() == [])
    }
}
