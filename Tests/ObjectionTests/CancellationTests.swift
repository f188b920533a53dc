import Testing

@testable import Objection

@Suite("A cancelled caller leaves a shared construction; the construction carries on", .hangLimit)
struct CancellationTests {
    @Test("a cancelled waiter on a singleton returns CancellationError while the construction is still running")
    func singletonWaiterLeaves() async throws {
        let blocked = GatedEngine()
        let (started, release, built) = (blocked.started, blocked.release, blocked.built)
        let injector = try await makeInjector { blocked.bind(on: $0, in: .singleton) }
        let first = Task { try await injector.get(Engine.self) }
        await started.wait()
        let second = Task { try await injector.get(Engine.self) }
        await waitUntil { await injector.callersWaiting(for: BindingKey(Engine.self)) == 2 }
        second.cancel()
        // Without leaving early, this would wait for the gate, which opens only afterwards.
        let left = try await withDeadline { await second.result }
        #expect(throws: CancellationError.self) { try left.get() }
        release.open()
        let engine = try await first.value
        #expect(try await injector.get(Engine.self) === engine)
        #expect(built.value == 1)
    }

    @Test("the caller that started a singleton may leave too; the construction finishes and is cached")
    func singletonStarterLeaves() async throws {
        let blocked = GatedEngine()
        let (started, release, built) = (blocked.started, blocked.release, blocked.built)
        let injector = try await makeInjector { blocked.bind(on: $0, in: .singleton) }
        let starter = Task { try await injector.get(Engine.self) }
        await started.wait()
        starter.cancel()
        let left = try await withDeadline { await starter.result }
        #expect(throws: CancellationError.self) { try left.get() }
        let later = Task { try await injector.get(Engine.self) }
        release.open()
        let engine = try await later.value
        #expect(try await injector.get(Engine.self) === engine)
        #expect(built.value == 1)
    }

    @Test("a cancelled waiter on a scoped construction leaves; the builder's value is cached for the request")
    func scopedWaiterLeaves() async throws {
        let blocked = GatedEngine()
        let (started, release, built) = (blocked.started, blocked.release, blocked.built)
        let injector = try await makeInjector { blocked.bind(on: $0, in: .scoped) }
        try await injector.withScope { scope in
            let builder = Task { try await scope.get(Engine.self) }
            await started.wait()
            let waiter = Task { try await scope.get(Engine.self) }
            waiter.cancel()
            let left = try await withDeadline { await waiter.result }
            #expect(throws: CancellationError.self) { try left.get() }
            release.open()
            let engine = try await builder.value
            #expect(try await scope.get(Engine.self) === engine)
        }
        #expect(built.value == 1)
    }

    @Test("a cancelled builder of a scoped instance does not fail the request's other waiters")
    func cancelledScopedBuilder() async throws {
        let started = Gate()
        let release = Gate()
        let attempts = Counter()
        let root = try await makeInjector { binder in
            binder.bind(Engine.self).to { _ in
                let attempt = attempts.increment()
                if attempt == 1 {
                    started.open()
                    await release.wait()
                    try Task.checkCancellation()
                }
                return Engine()
            }.inScope(.scoped)
        }
        try await root.withScope { scope in
            let builder = Task { try await scope.get(Engine.self) }
            await started.wait()
            let waiter = Task { try await scope.get(Engine.self) }
            // The waiter has joined the builder's construction.
            let binding = try #require(try scope.binding(for: BindingKey(Engine.self), as: Engine.self))
            await waitUntil { scope.slot(for: binding)?.construction?.joins == 1 }
            builder.cancel()
            release.open()
            _ = try await waiter.value
            await #expect(throws: CancellationError.self) { try await builder.value }
        }
    }

    @Test("a cancelled first use of a Lazy handle leaves; the value is computed once for the others")
    func lazyWaiterLeaves() async throws {
        let blocked = GatedEngine()
        let (started, release, built) = (blocked.started, blocked.release, blocked.built)
        let injector = try await makeInjector { blocked.bind(on: $0, in: .transient) }
        let lazy = try await injector.get(Lazy<Engine>.self)
        let first = Task { try await lazy.value }
        await started.wait()
        first.cancel()
        let left = try await withDeadline { await first.result }
        #expect(throws: CancellationError.self) { try left.get() }
        let second = Task { try await lazy.value }
        release.open()
        let engine = try await second.value
        #expect(try await lazy.value === engine)
        #expect(built.value == 1)
    }
}
