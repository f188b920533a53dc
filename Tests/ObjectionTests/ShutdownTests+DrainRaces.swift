import Testing

@testable import Objection

/// The drain against hostile timing: scopes opening while it begins, requests cancelled while it
/// waits, and shutdowns called from inside the very requests it waits for.
extension ShutdownTests {
    @Test("scopes opening while shutdown begins: each is refused or finishes with its singleton undisposed")
    func drainRacesScopeOpenings() async throws {
        let pool = ResourcePool()
        let root = try await makeInjector { b in
            b.bind(CountedResource.self).to { _ in pool.make() }.asSingleton()
        }
        let started = Counter()
        let someStarted = Gate()
        let outcomes = try await withDeadline {
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<400 {
                    group.addTask {
                        do {
                            return try await root.withScope(values: { _ in }) { scope in
                                if started.increment() == 50 { someStarted.open() }
                                await Task.yield()
                                let resource = try await scope.get(CountedResource.self)
                                return resource.disposals.value == 0 ? "served" : "served a disposed singleton"
                            }
                        } catch let error as InjectionError where error.code == .shutDown {
                            return "refused"
                        }
                    }
                }
                await someStarted.wait()
                #expect(await root.shutdown(within: nil) == nil)
                var outcomes: [String] = []
                for try await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
        }
        #expect(outcomes.count == 400)
        #expect(!outcomes.contains("served a disposed singleton"))
        #expect(outcomes.filter { $0 == "served" }.count >= 50)
        #expect(pool.made.count == 1)
        #expect(pool.made.first?.disposals.value == 1)
    }

    @Test("requests cancelled while the drain waits for them end their scopes; the drain then finishes")
    func drainWithCancellationStorm() async throws {
        let pool = ResourcePool()
        let log = Log()
        let root = try await makeInjector { b in
            b.bind(CountedResource.self).to { _ in pool.make() }.asSingleton()
            b.bind(Resource.self).to { r in
                _ = try await r.get(CountedResource.self)
                return Resource("scoped", log: log)
            }.inScope(.scoped)
        }
        let entered = Counter()
        let allInside = Gate()
        let requests = (0..<200).map { _ in
            Task {
                try await root.withScope(values: { _ in }) { scope in
                    _ = try await scope.get(Resource.self)
                    if entered.increment() == 200 { allInside.open() }
                    // Waits until cancelled: a client that left, whose handler notices.
                    try await Task.sleep(for: .seconds(3_600))
                }
            }
        }
        try await withDeadline {
            await allInside.wait()
            let shutdown = Task { await root.shutdown(within: nil) }
            await waitUntil { root.phase == .shuttingDown }
            #expect(pool.made.first?.disposals.value == 0)
            for request in requests { request.cancel() }
            for request in requests { _ = await request.result }
            #expect(await shutdown.value == nil)
        }
        #expect(log.values.count == 200, "every scope disposed its own")
        #expect(pool.made.first?.disposals.value == 1)
    }

    @Test("two requests that each shut the injector down while the other is open: neither waits forever")
    func shutdownsFromTwoRequests() async throws {
        let pool = ResourcePool()
        let root = try await makeInjector { b in
            b.bind(CountedResource.self).to { _ in pool.make() }.asSingleton()
        }
        let bothInside = Counter()
        let inside = Gate()
        try await withDeadline {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        try await root.withScope(values: { _ in }) { scope in
                            _ = try await scope.get(CountedResource.self)
                            if bothInside.increment() == 2 { inside.open() }
                            await inside.wait()
                            #expect(await root.shutdown(within: nil) == nil)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        await waitUntil { root.phase == .shutDown && pool.made.first?.disposals.value == 1 }
        #expect(pool.made.count == 1)
    }
}

/// Cases a review found: two drains waiting at once, a scope ending that must not stand for
/// another, a refused scope whose modules built something.
extension ShutdownTests {
    @Test("a drain inside one request and a shutdown outside wait at once: both end once the requests do")
    func twoDrainsAtOnce() async throws {
        let pool = ResourcePool()
        let root = try await makeInjector { b in
            b.bind(CountedResource.self).to { _ in pool.make() }.asSingleton()
        }
        let releaseS = Gate()
        try await withDeadline {
            let other = await HeldRequest.open(on: root)
            let drainer = Task {
                try await root.withScope(values: { _ in }) { _ in
                    let drained = Task { await root.drain(within: nil) }
                    await releaseS.wait()
                    return drained
                }
            }
            await waitUntil { root.phase == .shuttingDown }
            let shutdown = Task { await root.shutdown(within: nil) }
            releaseS.open()
            let drained = try await drainer.value
            try await other.finish()
            #expect(await drained.value == nil)
            #expect(await shutdown.value == nil)
        }
        #expect(pool.made.allSatisfy { $0.disposals.value == 1 })
    }

    @Test("a shutdown from a cancelled task inside one request still waits for the other requests in flight")
    func cancelledShutdownInsideARequest() async throws {
        let pool = ResourcePool()
        let root = try await makeInjector { b in
            b.bind(CountedResource.self).to { _ in pool.make() }.asSingleton()
        }
        _ = try await root.get(CountedResource.self)
        try await withDeadline {
            let other = await HeldRequest.open(on: root) { try await $0.get(CountedResource.self).disposals.value }
            // A handler whose client left shuts the injector down; its own scope then ends.
            try await root.withScope(values: { _ in }) { _ in
                let cancelled = Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    return await root.shutdown(within: nil)
                }
                #expect(await cancelled.value == nil)
            }
            #expect(pool.made.first?.disposals.value == 0, "the other request is still in flight")
            let disposalsSeen = try await other.finish()
            #expect(disposalsSeen == 0)
            await waitUntil { pool.made.first?.disposals.value == 1 }
        }
    }

    @Test("a scope with modules refused while the injector drains disposes what its modules built")
    func refusedScopeWithModulesIsEnded() async throws {
        let log = Log()
        let root = try await makeInjector { _ in }
        try await withDeadline {
            let request = await HeldRequest.open(on: root)
            let shutdown = Task { await root.shutdown(within: nil) }
            await waitUntil { root.phase == .shuttingDown }
            let eager = TestModule { binder in
                binder.bind(Resource.self).to { _ in Resource("eager", log: log) }.asEagerSingleton()
            }
            let refused = await injectionError { try await root.withScope(modules: [eager]) { _ in } }
            #expect(refused?.code == .shutDown)
            try await request.finish()
            #expect(await shutdown.value == nil)
        }
        #expect(log.values == ["eager"], "built with the scope's modules, then disposed when refused")
    }
}
