import ObjectionTesting
import Testing

@testable import Objection

/// The drain: shutdown refuses new request scopes, waits for those in flight and for the
/// constructions they start, and only then disposes; within a deadline that names what it cut
/// short, and never waiting for the scopes its caller runs inside.
extension ShutdownTests {
    /// A root with a disposable singleton `CountedResource` (from `pool`) and a scoped
    /// `Resource` logged as "scoped" that depends on it.
    private func drainedRoot(
        pool: ResourcePool,
        log: Log,
        observer: (any InjectionObserver)? = nil
    ) async throws -> InjectorActor {
        try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(CountedResource.self).to { _ in pool.make() }.asSingleton()
                    b.bind(Resource.self).to { r in
                        _ = try await r.get(CountedResource.self)
                        return Resource("scoped", log: log)
                    }.inScope(.scoped)
                }
            ],
            observer: observer
        )
    }

    @Test("a request in flight when shutdown begins keeps its singletons until it ends; new scopes are refused")
    func drainWaitsForRequestInFlight() async throws {
        let pool = ResourcePool()
        let log = Log()
        let root = try await drainedRoot(pool: pool, log: log)
        let inside = Gate()
        let release = Gate()
        let result = try await withDeadline {
            let request = Task {
                try await root.withScope(values: { _ in }) { scope in
                    inside.open()
                    await release.wait()
                    // The singleton, built lazily now, after shutdown began, and used.
                    let resource = try await scope.get(Resource.self)
                    let singleton = try await scope.get(CountedResource.self)
                    return (resource.name, singleton.disposals.value)
                }
            }
            await inside.wait()
            let shutdown = Task { await root.shutdown(within: nil) }
            await waitUntil { root.phase != .running }
            let refused = await injectionError { try await root.withScope(values: { _ in }) { _ in } }
            #expect(!root.isShutDown, "get keeps working while the drain waits")
            release.open()
            let answered = try await request.value
            return (answered, refused, await shutdown.value)
        }
        #expect(result.0.0 == "scoped")
        #expect(result.0.1 == 0, "the singleton was not disposed under the request")
        #expect(result.1?.code == .shutDown)
        #expect(result.1?.message.contains("shutting down") == true)
        #expect(result.2 == nil)
        #expect(log.values == ["scoped"])
        #expect(pool.made.count == 1)
        #expect(pool.made.first?.disposals.value == 1)
    }

    @Test("a scope nested inside a request in flight opens during the drain, on the root or on the scope")
    func drainAdmitsNestedScopes() async throws {
        let pool = ResourcePool()
        let root = try await drainedRoot(pool: pool, log: Log())
        let (nested, stopped) = try await withDeadline {
            let request = await HeldRequest.open(on: root) { scope in
                let onRoot = try await root.withScope(values: { _ in }) { try await $0.get(Resource.self).name }
                let onScope = try await scope.withScope(values: { _ in }) { try await $0.get(Resource.self).name }
                return [onRoot, onScope]
            }
            return try await request.finish(whileStopping: root) { await root.shutdown(within: nil) }
        }
        #expect(stopped == nil)
        #expect(nested == ["scoped", "scoped"])
        #expect(pool.made.first?.disposals.value == 1)
    }

    @Test("a request scope of a child counts in its root's drain")
    func drainWaitsForChildScopes() async throws {
        let pool = ResourcePool()
        let root = try await drainedRoot(pool: pool, log: Log())
        let child = try await root.child(modules: [TestModule { $0.bind(Engine.self).to(Engine.init) }])
        let (disposalsSeen, stopped) = try await withDeadline {
            let request = await HeldRequest.open(on: child) { try await $0.get(CountedResource.self).disposals.value }
            return try await request.finish(whileStopping: root) { await root.shutdown(within: nil) }
        }
        #expect(stopped == nil)
        #expect(disposalsSeen == 0)
        #expect(pool.made.first?.disposals.value == 1)
    }

    @Test("a request that never ends is cut at the deadline: named in the error and to the observer, and disposed")
    func drainDeadlineCutsOpenScope() async throws {
        let pool = ResourcePool()
        let recorder = RecordingObserver()
        let root = try await drainedRoot(pool: pool, log: Log(), observer: recorder)
        _ = try await root.get(CountedResource.self)
        let request = await HeldRequest.open(on: root)
        let failure = try await withDeadline { await root.shutdown(within: .milliseconds(20)) }
        #expect(failure?.code == .timedOut)
        #expect(failure?.problems.map(\.message) == ["1 request scope was still open"])
        #expect(pool.made.first?.disposals.value == 1)
        #expect(root.isShutDown)
        let drains = recorder.events.compactMap { event -> InjectionError?? in
            if case .drained(_, let error) = event { return .some(error) }
            return nil
        }
        #expect(drains.count == 1)
        #expect(drains.first??.code == .timedOut)
        try await request.finish()
    }

    @Test("a provider that never returns is cut at the deadline and named with what it waits on")
    func drainDeadlineCutsHungProvider() async throws {
        let started = Gate()
        let never = Gate()
        let root = try await makeInjector { b in
            b.bind(Engine.self).to { _ in
                started.open()
                await never.wait()
                return Engine()
            }.asSingleton()
            b.bind(Car.self).to { r in Car(engine: try await r.get(Engine.self), wheel: Wheel()) }.asSingleton()
        }
        let get = Task { try await root.get(Car.self) }
        await started.wait()
        let failure = try await withDeadline { await root.shutdown(within: .milliseconds(20)) }
        #expect(failure?.code == .timedOut)
        let messages = failure?.problems.map(\.message) ?? []
        #expect(messages.contains("'Car' was still being built (Car -> Engine)"), "\(messages)")
        #expect(messages.contains("'Engine' was still being built"), "\(messages)")
        #expect(failure.map { "\($0)" }?.contains("Shutdown stopped waiting after") == true)
        never.open()
        let got = await outcome { try await get.value }
        if case .failure(let error) = got { #expect((error as? InjectionError)?.code == .shutDown) }
    }

    @Test("shutdown called inside a request scope, or a scope nested in it through the root, does not wait for it")
    func shutdownFromInsideItsOwnScope() async throws {
        for nestedThroughRoot in [false, true] {
            let pool = ResourcePool()
            let log = Log()
            let root = try await drainedRoot(pool: pool, log: log)
            let failure = try await withDeadline {
                try await root.withScope(values: { _ in }) { outer in
                    _ = try await outer.get(Resource.self)
                    guard nestedThroughRoot else { return await root.shutdown(within: nil) }
                    return try await root.withScope(values: { _ in }) { _ in await root.shutdown(within: nil) }
                }
            }
            #expect(failure == nil)
            #expect(pool.made.first?.disposals.value == 1)
            #expect(log.values == ["scoped"], "the scope disposes its own when it ends")
        }
    }

    @Test("a second shutdown called inside a request the first waits for returns at once; the first then finishes")
    func secondShutdownInsideDrainedScope() async throws {
        let pool = ResourcePool()
        let root = try await drainedRoot(pool: pool, log: Log())
        let inside = Gate()
        let release = Gate()
        try await withDeadline {
            let request = Task {
                try await root.withScope(values: { _ in }) { scope in
                    inside.open()
                    await release.wait()
                    #expect(await root.shutdown(within: nil) == nil)
                    let singleton = try await scope.get(CountedResource.self)
                    #expect(singleton.disposals.value == 0)
                }
            }
            await inside.wait()
            let first = Task { await root.shutdown(within: nil) }
            await waitUntil { root.phase != .running }
            release.open()
            try await request.value
            #expect(await first.value == nil)
        }
        #expect(pool.made.first?.disposals.value == 1)
    }

    @Test("shutdown from a cancelled task returns at once; the drain and the disposal run when the request ends")
    func cancelledShutdownDrainsInBackground() async throws {
        let pool = ResourcePool()
        let recorder = RecordingObserver()
        let root = try await drainedRoot(pool: pool, log: Log(), observer: recorder)
        let inside = Gate()
        let release = Gate()
        try await withDeadline {
            let request = Task {
                try await root.withScope(values: { _ in }) { scope in
                    inside.open()
                    await release.wait()
                    return try await scope.get(CountedResource.self).disposals.value
                }
            }
            await inside.wait()
            let cancelled = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return await root.shutdown(within: nil)
            }
            #expect(await cancelled.value == nil)
            #expect(root.phase != .running)
            #expect(pool.made.isEmpty || pool.made.first?.disposals.value == 0)
            release.open()
            let disposalsSeen = try await request.value
            #expect(disposalsSeen == 0, "the request used its singleton undisposed")
            await waitUntil { pool.made.first?.disposals.value == 1 }
        }
        #expect(recorder.events.contains { if case .drained(_, nil) = $0 { true } else { false } })
    }

    @Test("200 requests in flight when shutdown begins all finish with their singletons; each disposed once")
    func drainWaitsForManyRequests() async throws {
        let pool = ResourcePool()
        let log = Log()
        let root = try await drainedRoot(pool: pool, log: log)
        let entered = Counter()
        let allInside = Gate()
        let release = Gate()
        let results = try await withDeadline {
            let requests = (0..<200).map { _ in
                Task {
                    try await root.withScope(values: { _ in }) { scope in
                        if entered.increment() == 200 { allInside.open() }
                        await release.wait()
                        _ = try await scope.get(Resource.self)
                        return try await scope.get(CountedResource.self).disposals.value
                    }
                }
            }
            await allInside.wait()
            let shutdown = Task { await root.shutdown(within: nil) }
            await waitUntil { root.phase != .running }
            release.open()
            var seen: [Int] = []
            for request in requests { seen.append(try await request.value) }
            #expect(await shutdown.value == nil)
            return seen
        }
        #expect(results == Array(repeating: 0, count: 200))
        #expect(log.values.count == 200)
        #expect(pool.made.count == 1)
        #expect(pool.made.first?.disposals.value == 1)
    }

    @Test("drain(within:) waits for the requests in flight and disposes nothing; shutdown then finds nothing open")
    func drainAlone() async throws {
        let pool = ResourcePool()
        let root = try await drainedRoot(pool: pool, log: Log())
        _ = try await root.get(CountedResource.self)
        let stopped = try await withDeadline {
            let request = await HeldRequest.open(on: root) { _ = try await $0.get(Resource.self) }
            return try await request.finish(whileStopping: root) { await root.drain(within: nil) }.stopped
        }
        #expect(stopped == nil)
        #expect(pool.made.first?.disposals.value == 0, "drained, not disposed")
        #expect(try await root.get(CountedResource.self).disposals.value == 0, "still resolves")
        #expect(await root.shutdown(within: .zero) == nil, "nothing left open: no deadline to pass")
        #expect(pool.made.first?.disposals.value == 1)
    }

    @Test("drain(within:) past its deadline reports the scopes still open")
    func drainAloneTimesOut() async throws {
        let root = try await drainedRoot(pool: ResourcePool(), log: Log())
        let request = await HeldRequest.open(on: root)
        let cut = try await withDeadline { await root.drain(within: .milliseconds(10)) }
        #expect(cut?.code == .timedOut)
        #expect(cut?.problems.map(\.message) == ["1 request scope was still open"])
        try await request.finish()
        #expect(await root.shutdown(within: nil) == nil)
    }
}
