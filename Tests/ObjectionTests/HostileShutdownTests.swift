import Testing

@testable import Objection

/// Shutdown racing gets, scopes and startup, called from inside the injector's own work, by a cancelled
/// caller, and reached by tasks that outlive their request.
@Suite("Hostile: shutdown", .timeLimit(.minutes(2)))
struct HostileShutdownTests {
    @Test(
        "shutdown racing 200 gets of a singleton in flight, and 10 other shutdowns: disposed once",
        arguments: ObserverKind.allCases)
    func shutdownRacesGets(kind: ObserverKind) async throws {
        let (observer, strict) = kind.make()
        let started = Gate()
        let release = Gate()
        let pool = ResourcePool()
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(Engine.self).to(Engine.init).asSingleton()
                    b.bind(CountedResource.self).to { r in
                        _ = try await r.get(Engine.self)
                        started.open()
                        await release.wait()
                        return pool.make()
                    }.asSingleton()
                }
            ],
            observer: observer
        )
        let (gets, shutdowns) = try await bounded {
            let gets = (0..<200).map { _ in Task { try await injector.get(CountedResource.self) } }
            await started.wait()
            let shutdowns = (0..<10).map { _ in Task { await injector.shutdown() } }
            await waitUntil { injector.isShutDown }
            release.open()
            var getResults: [Result<CountedResource, any Error>] = []
            for g in gets { getResults.append(await g.result) }
            var shutdownResults: [InjectionError?] = []
            for s in shutdowns { shutdownResults.append(await s.value) }
            return (getResults, shutdownResults)
        }
        for s in shutdowns { #expect(s == nil) }
        for g in gets {
            if case .failure(let error) = g {
                #expect((error as? InjectionError)?.code == .shutDown, "\(error)")
            }
        }
        #expect(pool.made.count == 1)
        for r in pool.made { #expect(r.disposals.value == 1) }
        let after = await injectionError { _ = try await injector.get(CountedResource.self) }
        #expect(after?.code == .shutDown)
        #expect(await injector.shutdown() == nil)
        for o in strict {
            #expect(o.finalProblems() == [])
            if o.successes {
                // Engine, then the resource: disposed in reverse order of construction.
                #expect(o.snapshot.disposed == [BindingKey(CountedResource.self)])
            }
        }
    }

    @Test(
        "root shutdown racing 200 request scopes in flight: every scoped instance disposed exactly once",
        arguments: [ObserverKind.none, .successes, .combinedMixed])
    func shutdownRacesScopes(kind: ObserverKind) async throws {
        let (observer, strict) = kind.make()
        let inside = Counter()
        let allInside = Gate()
        let release = Gate()
        let pool = ResourcePool()
        let singletons = ResourcePool()
        let root = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(CountedResource.self, named: "singleton").to { _ in singletons.make() }.asSingleton()
                    b.bind(CountedResource.self).to { r in
                        _ = try await r.get(CountedResource.self, named: "singleton")
                        return pool.make()
                    }.inScope(.scoped)
                }
            ],
            observer: observer
        )
        let results = try await bounded {
            let scopes = (0..<200).map { _ in
                Task {
                    try await root.withScope(values: { _ in }) { scope in
                        _ = try await scope.get(CountedResource.self)
                        if inside.increment() == 200 { allInside.open() }
                        await release.wait()
                        // May race the root's shutdown: a second resolution in the scope.
                        _ = try await scope.get(CountedResource.self)
                        _ = try await scope.get(CountedResource.self, named: "singleton")
                    }
                }
            }
            await allInside.wait()
            let shutdown = Task { await root.shutdown() }
            release.open()
            var results: [Result<Void, any Error>] = []
            for s in scopes { results.append(await s.result) }
            _ = await shutdown.value
            // Scopes opened after shutdown are refused.
            let late = await outcome { try await root.withScope(values: { _ in }) { _ in } }
            results.append(late)
            return results
        }
        for result in results.dropLast() {
            if case .failure(let error) = result {
                #expect((error as? InjectionError)?.code == .shutDown, "\(error)")
            }
        }
        if case .success = results.last! { Issue.record("a scope opened after shutdown ran") }
        #expect(pool.made.count == 200)
        for r in pool.made { #expect(r.disposals.value == 1) }
        #expect(singletons.made.count == 1)
        for r in singletons.made { #expect(r.disposals.value == 1) }
        for o in strict { #expect(o.finalProblems() == []) }
    }

    @Test(
        "shutdown racing a deferred start of 50 slow eager singletons, observed: no hang, each built one disposed once")
    func shutdownRacesStartup() async throws {
        let observer = StrictObserver()
        let pool = ResourcePool()
        let release = Gate()
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    for i in 0..<50 {
                        b.bind(CountedResource.self, named: "r\(i)").to { _ in
                            await release.wait()
                            return pool.make()
                        }.asEagerSingleton()
                    }
                }
            ],
            startup: .deferred,
            observer: observer
        )
        let start = Task { try await injector.start(within: .seconds(30)) }
        let shutdown = Task { await injector.shutdown() }
        release.open()
        let started = try await bounded { await start.result }
        _ = try await bounded { await shutdown.value }
        if case .failure(let error) = started {
            #expect((error as? InjectionError)?.code == .shutDown, "\(error)")
        }
        try await bounded { await waitUntil { pool.made.allSatisfy { $0.disposals.value == 1 } } }
        for r in pool.made { #expect(r.disposals.value == 1) }
        let s = observer.snapshot
        #expect(s.startups.count <= 1)
        #expect(observer.finalProblems() == [])
    }

    @Test("a dispose hook that awaits its own injector's shutdown does not hang")
    func disposeHookCallsShutdown() async throws {
        let box = InjectorBox()
        // The injector's bindings hold the box: let go of the injector at the end, or both leak.
        defer { box.injector = nil }
        let injector = try await makeInjector { b in
            b.bind(Engine.self).to(Engine.init).asSingleton().onDispose { _ in
                _ = await box.injector?.shutdown()
            }
        }
        box.injector = injector
        _ = try await injector.get(Engine.self)
        let result = await outcome { try await bounded(30) { await injector.shutdown() } }
        if case .failure(let error) = result { Issue.record("\(error)") }
    }

    @Test("a singleton provider that shuts its own injector down does not hang its get")
    func providerCallsShutdown() async throws {
        let box = InjectorBox()
        // The injector's bindings hold the box: let go of the injector at the end, or both leak.
        defer { box.injector = nil }
        let injector = try await makeInjector { b in
            b.bind(Engine.self).to { _ in
                _ = await box.injector?.shutdown()
                return Engine()
            }.asSingleton()
        }
        box.injector = injector
        let result = await outcome { try await bounded(30) { try await injector.get(Engine.self) } }
        // The construction finishes after the shutdown it started: its value is refused.
        guard case .failure(let error) = result else {
            Issue.record("got a value from a shut-down injector")
            return
        }
        #expect((error as? InjectionError)?.code == .shutDown, "\(error)")
    }

    @Test("a scoped provider that awaits its scope's end does not hang")
    func scopedProviderAwaitsScopeShutdown() async throws {
        let injector = try await makeInjector { b in
            b.bind(Engine.self).to { _ in
                _ = await InjectorActor.current?.shutdown()
                return Engine()
            }.inScope(.scoped)
        }
        let result = await outcome {
            try await bounded(30) { try await injector.withScope(values: { _ in }) { try await $0.get(Engine.self) } }
        }
        guard case .failure(let error) = result else {
            Issue.record("got a value from an ended scope")
            return
        }
        #expect((error as? InjectionError)?.code == .shutDown, "\(error)")
    }

    @Test("shutdown called from a task that is then cancelled still disposes in reverse order of construction")
    func cancelledShutdownCaller() async throws {
        let log = Log()
        let started = Gate()
        let release = Gate()
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(Resource.self, named: "B").to { _ in Resource("B", log: log) }.asSingleton()
                    b.bind(Resource.self, named: "A").to { r in
                        _ = try await r.get(Resource.self, named: "B")
                        started.open()
                        await release.wait()
                        return Resource("A", log: log)
                    }.asSingleton()
                }
            ],
            observer: StrictObserver()
        )
        let get = Task { try await injector.get(Resource.self, named: "A") }
        await started.wait()
        let shutdown = Task { await injector.shutdown() }
        await waitUntil { injector.isShutDown }
        shutdown.cancel()
        _ = try await bounded { await shutdown.value }
        release.open()
        _ = await get.result
        // Whatever happens in the background, give it a bounded chance to finish.
        try await bounded { await waitUntil { log.values.count == 2 } }
        #expect(log.values == ["A", "B"], "A was built from B; B must outlive it")
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
        let (direct, current) = try await bounded { await escaped.value }
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
        let requestResult = try await bounded { await request.result }
        release.open()
        let escaped = try await bounded { await escapedBox.withLock { $0 }!.value }
        if case .success = requestResult { Issue.record("the cancelled request's get should have left") }
        _ = escaped
        try await bounded { await waitUntil { pool.made.allSatisfy { $0.disposals.value == 1 } } }
        #expect(pool.made.count <= 1)
        for r in pool.made { #expect(r.disposals.value == 1) }
        #expect(observer.finalProblems() == [])
    }
}
