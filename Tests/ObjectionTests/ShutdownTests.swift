import Testing

@testable import Objection

@Suite("Shutdown and disposal", .hangLimit)
struct ShutdownTests {
    final class Pool: Sendable { let resource: Resource; init(_ r: Resource) { resource = r } }

    /// Records its disposal by name.
    final class Probe: AsyncDisposable {
        let name: String
        let log: Log
        init(_ name: String, log: Log) {
            self.name = name
            self.log = log
        }
        func dispose() async throws { log.append(name) }
    }

    final class OtherProbe: Sendable {}

    @Test("shutdown disposes singletons in reverse order of construction, each once; instances are the caller's")
    func reverseOrder() async throws {
        let log = Log()
        let owned = Resource("owned", log: log)
        let injector = try await makeInjector { binder in
            binder.bind(Resource.self, named: "config").toInstance(owned)
            binder.bind(Resource.self, named: "database").to { r in
                _ = try await r.get(Resource.self, named: "config")
                return Resource("database", log: log)
            }.asSingleton()
            binder.bind(Resource.self, named: "cache").to { r in
                _ = try await r.get(Resource.self, named: "database")
                return Resource("cache", log: log)
            }.asSingleton()
            binder.bind(Resource.self, named: "metrics").to { _ in Resource("metrics", log: log) }.asEagerSingleton()
            binder.bind(Resource.self, named: "transient").to { _ in Resource("transient", log: log) }
        }
        _ = try await injector.get(Resource.self, named: "cache")
        _ = try await injector.get(Resource.self, named: "transient")
        let failure = await injector.shutdown(within: nil)
        #expect(failure == nil)
        #expect(log.values == ["cache", "database", "metrics"])
        #expect(await injector.shutdown(within: nil) == nil)
        #expect(log.values == ["cache", "database", "metrics"])
    }

    @Test("a failing disposal does not stop the others; failures are reported together")
    func failingDisposals() async throws {
        let log = Log()
        let injector = try await makeInjector { binder in
            binder.bind(Resource.self, named: "a").to { _ in Resource("a", log: log, fails: true) }.asEagerSingleton()
            binder.bind(Resource.self, named: "b").to { r in
                _ = try await r.get(Resource.self, named: "a")
                return Resource("b", log: log)
            }.asEagerSingleton()
            binder.bind(Pool.self).to { _ in Pool(Resource("pool", log: log)) }.asSingleton()
                .onDispose { pool in
                    log.append("pool hook")
                    throw ProviderFailure(attempt: 5)
                }
        }
        _ = try await injector.get(Pool.self)
        let failure = try #require(await injector.shutdown(within: nil))
        #expect(failure.code == .disposalFailed)
        #expect(failure.problems.count == 2)
        #expect(failure.problems.compactMap { $0.underlying as? ProviderFailure }.count == 2)
        #expect(Set(log.values) == ["a", "b", "pool hook"])
    }

    @Test("when an eager singleton fails, the ones already built are disposed")
    func eagerFailureDisposes() async throws {
        let log = Log()
        let release = Gate()
        await #expect(throws: ProviderFailure(attempt: 1)) {
            _ = try await makeInjector { binder in
                binder.bind(Probe.self).to { _ in
                    defer { release.open() }
                    return Probe("built", log: log)
                }.asEagerSingleton()
                binder.bind(OtherProbe.self).to { _ in
                    await release.wait()
                    throw ProviderFailure(attempt: 1)
                }.asEagerSingleton()
            }
        }
        #expect(log.values == ["built"])
    }

    @Test("after shutdown, get, child and withScope throw shutDown")
    func useAfterShutdown() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init).asSingleton()
            binder.bind(Wheel.self).to(Wheel.init)
        }
        _ = try await injector.get(Engine.self)
        await injector.shutdown(within: nil)
        for error in [
            await injectionError { _ = try await injector.get(Engine.self) },
            await injectionError { _ = try await injector.get(Wheel.self) },
            await injectionError { _ = try await injector.child(modules: []) },
            await injectionError { try await injector.withScope { _ in } },
        ] {
            #expect(error?.code == .shutDown)
        }
    }

    @Test("a shutdown racing an in-flight construction waits for it and disposes what it built")
    func shutdownDuringConstruction() async throws {
        let log = Log()
        let started = Gate()
        let release = Gate()
        let injector = try await makeInjector { binder in
            binder.bind(Resource.self).to { _ in
                started.open()
                await release.wait()
                return Resource("slow", log: log)
            }.asSingleton()
        }
        let caller = Task { try await injector.get(Resource.self) }
        await started.wait()
        let shutdown = Task { await injector.shutdown(within: nil) }
        await waitUntil { injector.isShutDown }
        release.open()
        #expect(await shutdown.value == nil)
        #expect(log.values == ["slow"])
        _ = try await caller.value
    }

    @Test("the end of a scope waits for a scoped construction still running and disposes it")
    func scopeWaitsForConstructions() async throws {
        let log = Log()
        let started = Gate()
        let release = Gate()
        let root = try await makeInjector { binder in
            binder.bind(Probe.self).to { _ in
                started.open()
                await release.wait()
                return Probe("late", log: log)
            }.inScope(.scoped)
        }
        let ended = Task {
            try await root.withScope { scope in
                Task { _ = try? await scope.get(Probe.self) }
                await started.wait()
                Task {
                    await waitUntil { scope.isShutDown }
                    release.open()
                }
            }
        }
        try await ended.value
        #expect(log.values == ["late"])
    }

    @Test("after shutdown the injector retains nothing it built")
    func releasesInstances() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init).asSingleton()
        }
        weak var engine: Engine?
        do {
            let built = try await injector.get(Engine.self)
            engine = built
        }
        #expect(engine != nil)
        await injector.shutdown(within: nil)
        // The finished construction task may hold its result a moment longer than its callers.
        await waitUntil { engine == nil }
        #expect(engine == nil)
    }

    @Test("a just-in-time singleton is released at shutdown")
    func justInTimeReleased() async throws {
        let injector = try await makeInjector { _ in }
        weak var registry: Registry?
        do {
            let built = try await injector.get(Registry.self)
            registry = built
        }
        #expect(registry != nil)
        await injector.shutdown(within: nil)
        await waitUntil { registry == nil }  // See ShutdownTests.releasesInstances.
        #expect(registry == nil)
    }

    @Test("a root's shutdown disposes its singletons, which its children then cannot rebuild")
    func childrenAfterRootShutdown() async throws {
        let log = Log()
        let root = try await makeInjector { binder in
            binder.bind(Resource.self).to { _ in Resource("root", log: log) }.asSingleton()
        }
        let child = try await root.child(modules: [])
        _ = try await child.get(Resource.self)
        await root.shutdown(within: nil)
        #expect(log.values == ["root"])
        let error = await injectionError { _ = try await child.get(Resource.self) }
        #expect(error?.code == .shutDown)
    }
}
