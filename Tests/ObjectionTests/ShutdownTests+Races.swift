import ObjectionTesting
import Testing

@testable import Objection

/// Shutdown racing gets, request scopes and a startup in flight, and called from a task that is
/// then cancelled: whatever was built is disposed exactly once, nothing hangs.
extension ShutdownTests {
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
        let (gets, shutdowns) = try await withDeadline {
            let gets = (0..<200).map { _ in Task { try await injector.get(CountedResource.self) } }
            await started.wait()
            let shutdowns = (0..<10).map { _ in Task { await injector.shutdown(within: nil) } }
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
        #expect(await injector.shutdown(within: nil) == nil)
        for o in strict {
            #expect(o.finalProblems() == [])
            if o.successes {
                // Engine, then the resource: disposed in reverse order of construction.
                #expect(o.recorded.disposals.succeeded == [BindingKey(CountedResource.self)])
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
        let results = try await withDeadline {
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
            let shutdown = Task { await root.shutdown(within: nil) }
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
        // A deadline the start never meets on any host: the release is open at once.
        let start = Task { try await injector.start(within: .seconds(hangDeadline)) }
        let shutdown = Task { await injector.shutdown(within: nil) }
        release.open()
        let started = try await withDeadline { await start.result }
        _ = try await withDeadline { await shutdown.value }
        if case .failure(let error) = started {
            #expect((error as? InjectionError)?.code == .shutDown, "\(error)")
        }
        try await withDeadline { await waitUntil { pool.made.allSatisfy { $0.disposals.value == 1 } } }
        for r in pool.made { #expect(r.disposals.value == 1) }
        #expect(observer.recorded.startupIDs.count <= 1)
        #expect(observer.finalProblems() == [])
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
        let shutdown = Task { await injector.shutdown(within: nil) }
        await waitUntil { injector.isShutDown }
        shutdown.cancel()
        _ = try await withDeadline { await shutdown.value }
        release.open()
        _ = await get.result
        // Whatever happens in the background, wait for it to finish.
        try await withDeadline { await waitUntil { log.values.count == 2 } }
        #expect(log.values == ["A", "B"], "A was built from B; B must outlive it")
    }
}
