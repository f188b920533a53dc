import Testing

@testable import Objection

@Suite("Request scopes", .hangLimit)
struct RequestScopeTests {
    static func root(log: Log = Log()) async throws -> InjectorActor {
        try await makeInjector { binder in
            binder.bind(RequestID.self).suppliedByScope()
            binder.bind(Config.self).toInstance(Config(dsn: "db"))
            binder.bind((any Database).self).to(PostgresDatabase.init).asSingleton()
            binder.bind(Session.self).to(Session.init).inScope(.scoped).onDispose { session in
                log.append("session \(session.requestID.value)")
            }
            binder.bind(Repository.self).to(Repository.init)
            binder.bind(RequestHandler.self).to(RequestHandler.init)
        }
    }

    @Test("a scoped binding is one instance per scope, and each request gets its own values")
    func onePerScope() async throws {
        let root = try await Self.root()
        let (first, again) = try await root.withScope(modules: [RequestModule(id: 1)]) { request in
            try await (request.get(RequestHandler.self), request.get(RequestHandler.self))
        }
        let other = try await root.withScope(modules: [RequestModule(id: 2)]) { request in
            try await request.get(RequestHandler.self)
        }
        #expect(first.session === again.session)
        #expect(first.session !== other.session)
        #expect(first.requestID == RequestID(value: 1) && other.requestID == RequestID(value: 2))
        #expect((first.session.database as? PostgresDatabase) === (other.session.database as? PostgresDatabase))
    }

    @Test("concurrent requests each see only their own scoped values")
    func concurrentRequestsAreIsolated() async throws {
        let root = try await Self.root()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 0..<200 {
                group.addTask {
                    try await root.withScope(modules: [RequestModule(id: id)]) { request in
                        await Task.yield()
                        let handler = try await request.get(RequestHandler.self)
                        #expect(handler.requestID.value == id)
                        #expect(handler.session.requestID.value == id)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test(
        "a resolution still running in another task when its scope ends fails with shutDown",
        arguments: [false, true]
    )
    func resolutionOutlivingItsScope(scopeDisposesSomething: Bool) async throws {
        final class Slow: Sendable {}
        final class Notes: Sendable {}
        final class Archive: AsyncDisposable {
            func dispose() async throws {}
        }
        final class SlowHandler: Sendable {
            init(slow: Slow, notes: Notes) {}
        }
        let started = Gate()
        let release = Gate()
        let root = try await makeInjector { binder in
            binder.bind(Slow.self).to { _ in
                started.open()
                await release.wait()
                return Slow()
            }
            binder.bind(Notes.self).to(Notes.init).inScope(.scoped)
            binder.bind(SlowHandler.self).to(SlowHandler.init)
            binder.bind(Archive.self).to(Archive.init).inScope(.scoped)
        }
        // The task is inside Slow's provider when the scope ends (with nothing in flight in its
        // cells: the handler is a transient); it then reaches the scope's notes slot. An archive
        // to dispose makes the scope end through the whole shutdown rather than at once.
        let pending = try await root.withScope(values: { _ in }) { scope in
            if scopeDisposesSomething { _ = try await scope.get(Archive.self) }
            let task = Task { try await scope.get(SlowHandler.self) }
            await started.wait()
            return task
        }
        release.open()
        let error = await injectionError { _ = try await pending.value }
        #expect(error?.code == .shutDown)
    }

    @Test("inside withScope the scope is the current injector")
    func scopeIsCurrent() async throws {
        let root = try await Self.root()
        try await root.withScope(modules: [RequestModule(id: 7)]) { request in
            #expect(InjectorActor.current === request)
            async let fromChildTask = InjectorActor.current?.get(RequestID.self)
            let id = try await fromChildTask
            #expect(id == RequestID(value: 7))
        }
    }

    @Test("the end of a scope disposes what it built, in reverse order, also when the body throws")
    func disposalAtScopeEnd() async throws {
        let log = Log()
        let root = try await makeInjector { binder in
            binder.bind(Engine.self).to { _ in Engine() }.inScope(.scoped).onDispose { _ in log.append("engine") }
            binder.bind(Wheel.self).to { r in
                _ = try await r.get(Engine.self); return Wheel()
            }
            .inScope(.scoped).onDispose { _ in log.append("wheel") }
            binder.bind(Car.self).to(Car.init)
            binder.bind(Headlight.self).toInstance(Headlight(side: .left))
        }
        _ = try await root.withScope { request in try await request.get(Car.self) }
        #expect(log.values == ["wheel", "engine"])

        await #expect(throws: ProviderFailure(attempt: 1)) {
            try await root.withScope { request in
                _ = try await request.get(Engine.self)
                throw ProviderFailure(attempt: 1)
            }
        }
        #expect(log.values == ["wheel", "engine", "engine"])
    }

    @Test("the body's error wins over a failing disposal's; after a returning body, the disposal's is thrown")
    func bodyErrorWinsOverDisposalError() async throws {
        let log = Log()
        let root = try await makeInjector { binder in
            binder.bind(Engine.self).to { _ in Engine() }.inScope(.scoped).onDispose { _ in
                log.append("engine")
                throw ProviderFailure(attempt: 2)
            }
        }
        await #expect(throws: ProviderFailure(attempt: 1)) {
            try await root.withScope(values: { _ in }) { request in
                _ = try await request.get(Engine.self)
                throw ProviderFailure(attempt: 1)
            }
        }
        #expect(log.values == ["engine"])

        let error = await #expect(throws: InjectionError.self) {
            try await root.withScope(values: { _ in }) { request in _ = try await request.get(Engine.self) }
        }
        #expect(error?.code == .disposalFailed)
        #expect(log.values == ["engine", "engine"])
    }

    @Test("a shutdown called while a scope's end is disposing waits for the disposals to finish")
    func shutdownDuringScopeEndWaits() async throws {
        let log = Log()
        let disposing = Gate()
        let release = Gate()
        let root = try await makeInjector { binder in
            binder.bind(Engine.self).to { _ in Engine() }.inScope(.scoped).onDispose { _ in
                disposing.open()
                await release.wait()
                log.append("disposed")
            }
        }
        let scope = InjectorBox()
        try await withDeadline {
            let request = Task {
                try await root.withScope(values: { _ in }) { request in
                    scope.injector = request
                    _ = try await request.get(Engine.self)
                }
            }
            await disposing.wait()
            let ended = try #require(scope.injector)
            let shutdown = Task {
                let failure = await ended.shutdown(within: nil)
                log.append("shutdown returned")
                return failure
            }
            // The second call has joined the first: it waits on the end's outcome.
            await waitUntil {
                ended.shutdownState.withLock { state in
                    if case .disposing(let waiters) = state.phase { return waiters != nil }
                    return false
                }
            }
            #expect(log.values.isEmpty)
            release.open()
            try await request.value
            #expect(await shutdown.value == nil)
        }
        #expect(log.values == ["disposed", "shutdown returned"])
    }

    @Test("nested scopes are separate")
    func nestedScopes() async throws {
        let root = try await Self.root()
        try await root.withScope(modules: [RequestModule(id: 1)]) { outer in
            let outerSession = try await outer.get(Session.self)
            let innerSession = try await outer.withScope(modules: [RequestModule(id: 2)]) { inner in
                try await inner.get(Session.self)
            }
            #expect(outerSession !== innerSession)
            #expect(innerSession.requestID.value == 2)
            #expect(try await outer.get(Session.self) === outerSession)
        }
    }

    @Test("a scope used after it ended throws instead of resurrecting request state")
    func escapedScope() async throws {
        let root = try await Self.root()
        let escaped = try await root.withScope(modules: [RequestModule(id: 1)]) { request in
            _ = try await request.get(Session.self)
            return request
        }
        let error = await injectionError { _ = try await escaped.get(Session.self) }
        #expect(error?.code == .shutDown)
        #expect(error?.message.hasPrefix("The request scope has ended") == true)
        let nested = await injectionError { try await escaped.withScope { _ in } }
        #expect(nested?.code == .shutDown)
        _ = try await root.get((any Database).self)
    }

    @Test("a child of a scope used after the scope ended gets shutDown for a value the scope did not supply")
    func childOfEndedScope() async throws {
        let root = try await makeInjector { binder in
            binder.bind(RequestID.self).suppliedByScope()
        }
        let child = try await root.withScope(values: { _ in }) { scope in
            try await scope.child(modules: [])
        }
        let error = await injectionError { _ = try await child.get(RequestID.self) }
        #expect(error?.code == .shutDown)
    }

    @Test("a scope releases what it built when it ends")
    func scopeReleasesInstances() async throws {
        let root = try await Self.root()
        weak var session: Session?
        try await root.withScope(modules: [RequestModule(id: 1)]) { request in
            let built = try await request.get(Session.self)
            session = built
        }
        #expect(session == nil)
    }
}
