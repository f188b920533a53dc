import ObjectionTesting
import Testing

@testable import Objection

/// `openScope(values:)` and `OpenScope.end(_:)`: a request scope that outlives the call that
/// opened it, as a streamed response's does — disposed once, when it ends, with the outcome given;
/// counted by the drain until then; ended even when its handle is dropped.
@Suite("Open scopes", .hangLimit)
struct OpenScopeTests {
    struct RequestID: Sendable, Equatable {
        let value: String
    }

    /// A scoped `Resource` logged as "scoped", a singleton `CountedResource` it uses, and the
    /// request's id supplied by the scope.
    static func root(log: Log, pool: ResourcePool, outcomes: Lock<[String]>, observer: (any InjectionObserver)? = nil)
        async throws -> InjectorActor
    {
        try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(RequestID.self).suppliedByScope()
                    b.bind(CountedResource.self).to { _ in pool.make() }.asSingleton()
                    b.bind(Resource.self).to { r in
                        _ = try await r.get(CountedResource.self)
                        return Resource("scoped", log: log)
                    }.inScope(.scoped).onDispose { resource, outcome in
                        outcomes.withLock { $0.append(outcome.isSuccess ? "succeeded" : "failed") }
                        try await resource.dispose()
                    }
                }
            ],
            observer: observer
        )
    }

    @Test(
        "the scope serves its values and scoped instances after the call that opened it, and is disposed once, when ended"
    )
    func outlivesItsOpener() async throws {
        let log = Log()
        let outcomes = Lock<[String]>([])
        let root = try await Self.root(log: log, pool: ResourcePool(), outcomes: outcomes)
        let open = try await root.openScope { $0.bind(RequestID.self, to: RequestID(value: "r-1")) }
        // Work done later, in another task: a body written after the handler returned.
        let later = Task {
            try await InjectorActor.withCurrent(open.injector) {
                let id = try await InjectorActor.current?.get(RequestID.self)
                let first = try await open.injector.get(Resource.self)
                let second = try await open.injector.get(Resource.self)
                return (id, first === second)
            }
        }
        let (id, same) = try await later.value
        #expect(id == RequestID(value: "r-1"))
        #expect(same)
        #expect(log.values.isEmpty, "nothing is disposed before the end")
        #expect(!open.isEnded)
        try await open.end(.succeeded)
        try await open.end(.failed(CancellationError()))
        #expect(open.isEnded)
        #expect(log.values == ["scoped"])
        #expect(outcomes.withLock { $0 } == ["succeeded"])
        await #expect(throws: InjectionError.self) { try await open.injector.get(Resource.self) }
        await root.shutdown(within: nil)
    }

    @Test("shutdown waits for an open scope before it disposes the singletons, and refuses new ones")
    func drainWaitsForOpenScope() async throws {
        let log = Log()
        let pool = ResourcePool()
        let outcomes = Lock<[String]>([])
        let root = try await Self.root(log: log, pool: pool, outcomes: outcomes)
        let open = try await root.openScope()
        _ = try await open.injector.get(Resource.self)
        let shutdown = Task { await root.shutdown(within: nil) }
        await waitUntil { root.phase != .running }
        let refused = await injectionError { _ = try await root.openScope() }
        #expect(refused?.code == .shutDown)
        // Still usable while the drain waits: the singleton is not disposed under it.
        #expect(pool.made.first?.disposals.value == 0)
        _ = try await open.injector.get(CountedResource.self)
        try await open.end(.succeeded)
        #expect(await shutdown.value == nil)
        #expect(log.values == ["scoped"])
        #expect(pool.made.map(\.disposals.value) == [1])
    }

    @Test("a drain deadline past which an open scope is still open names it and disposes")
    func drainDeadlineCutsAnOpenScope() async throws {
        let pool = ResourcePool()
        let root = try await Self.root(log: Log(), pool: pool, outcomes: Lock([]))
        let open = try await root.openScope()
        _ = try await open.injector.get(CountedResource.self)
        let failure = await root.shutdown(within: .milliseconds(50))
        #expect(failure?.code == .timedOut)
        #expect(pool.made.map(\.disposals.value) == [1])
        try await open.end(.succeeded)
    }

    @Test("a handle dropped without being ended ends its scope: disposed once, with a failed outcome")
    func droppedHandleEnds() async throws {
        let log = Log()
        let outcomes = Lock<[String]>([])
        let root = try await Self.root(log: log, pool: ResourcePool(), outcomes: outcomes)
        do {
            let open = try await root.openScope()
            _ = try await open.injector.get(Resource.self)
        }
        try await withDeadline { await waitUntil { !log.values.isEmpty } }
        #expect(log.values == ["scoped"])
        #expect(outcomes.withLock { $0 } == ["failed"])
        // The drain does not wait for it.
        #expect(await root.shutdown(within: nil) == nil)
    }

    @Test("a handle dropped after endsWhenReleased(with: .succeeded) ends its scope as a success")
    func droppedHandleEndsAsTold() async throws {
        let log = Log()
        let outcomes = Lock<[String]>([])
        let root = try await Self.root(log: log, pool: ResourcePool(), outcomes: outcomes)
        do {
            let open = try await root.openScope()
            _ = try await open.injector.get(Resource.self)
            open.endsWhenReleased(with: .succeeded)
        }
        try await withDeadline { await waitUntil { !log.values.isEmpty } }
        #expect(outcomes.withLock { $0 } == ["succeeded"])
        #expect(await root.shutdown(within: nil) == nil)
    }

    struct CommitFailed: Error {}

    @Test(
        "a disposal that fails as a released handle's scope ends reaches endsWhenReleased's log, kept by a later call",
        arguments: [true, false]
    )
    func droppedHandleLogsAFailedDisposal(succeeded: Bool) async throws {
        let root = try await InjectorActor(modules: [
            TestModule { b in
                b.bind(Resource.self).to { _ in Resource("scoped", log: Log()) }.inScope(.scoped)
                    .onDispose { _, _ in throw CommitFailed() }
            }
        ])
        let (failures, heard) = AsyncStream.makeStream(of: ResponseDisposalFailure.self)
        do {
            let open = try await root.openScope()
            _ = try await open.injector.get(Resource.self)
            open.endsWhenReleased(with: .succeeded) { heard.yield($0) }
            // A later call without a log changes the outcome and keeps the log.
            if !succeeded { open.endsWhenReleased(with: .failed(CommitFailed())) }
        }
        let failure = try await withDeadline { await failures.first { _ in true } }
        #expect((failure?.error as? InjectionError)?.code == .disposalFailed)
        #expect(failure?.responseFailed == !succeeded)
        #expect(failure?.message.contains("cut short") == false)
        #expect(await root.shutdown(within: nil) == nil)
    }

    @Test("the observer hears the scope open and end, once each")
    func observerHearsOpenAndEnd() async throws {
        let observer = RecordingObserver(observesScopes: true)
        let root = try await Self.root(log: Log(), pool: ResourcePool(), outcomes: Lock([]), observer: observer)
        let open = try await root.openScope()
        #expect(observer.lines.filter { $0.hasPrefix("scope") } == ["scope opened"])
        try await open.end(.succeeded)
        try await open.end(.succeeded)
        #expect(observer.lines.filter { $0.hasPrefix("scope") } == ["scope opened", "scope ended"])
        await root.shutdown(within: nil)
    }

    @Test("values that would replace a binding are refused, and nothing stays open")
    func valuesReplacingABindingAreRefused() async throws {
        let root = try await Self.root(log: Log(), pool: ResourcePool(), outcomes: Lock([]))
        let error = await injectionError {
            _ = try await root.openScope { $0.bind(CountedResource.self, to: CountedResource()) }
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(await root.shutdown(within: nil) == nil)
    }
}
