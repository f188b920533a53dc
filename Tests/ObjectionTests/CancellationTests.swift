import Testing

@testable import Objection

/// An `Engine` binding whose provider reports that it started, then blocks until released.
struct BlockedEngine {
    let started = Gate()
    let release = Gate()
    let built = Counter()

    func bind(on binder: Binder, in scope: Scope) {
        binder.bind(Engine.self).to { [started, release, built] _ in
            built.increment()
            started.open()
            await release.wait()
            return Engine()
        }
        .inScope(scope)
    }
}

@Suite("A cancelled caller leaves a shared construction; the construction carries on", .timeLimit(.minutes(1)))
struct CancellationTests {
    @Test("a cancelled waiter on a singleton returns CancellationError while the construction is still running")
    func singletonWaiterLeaves() async throws {
        let blocked = BlockedEngine()
        let (started, release, built) = (blocked.started, blocked.release, blocked.built)
        let injector = try await makeInjector { blocked.bind(on: $0, in: .singleton) }
        let first = Task { try await injector.get(Engine.self) }
        await started.wait()
        let second = Task { try await injector.get(Engine.self) }
        await waitUntil { await injector.callersWaiting(for: BindingKey(Engine.self)) == 2 }
        second.cancel()
        // Without leaving early, this would wait for the gate, which opens only afterwards.
        let left = try await withDeadline(seconds: 20) { await second.result }
        #expect(throws: CancellationError.self) { try left.get() }
        release.open()
        let engine = try await first.value
        #expect(try await injector.get(Engine.self) === engine)
        #expect(built.value == 1)
    }

    @Test("the caller that started a singleton may leave too; the construction finishes and is cached")
    func singletonStarterLeaves() async throws {
        let blocked = BlockedEngine()
        let (started, release, built) = (blocked.started, blocked.release, blocked.built)
        let injector = try await makeInjector { blocked.bind(on: $0, in: .singleton) }
        let starter = Task { try await injector.get(Engine.self) }
        await started.wait()
        starter.cancel()
        let left = try await withDeadline(seconds: 20) { await starter.result }
        #expect(throws: CancellationError.self) { try left.get() }
        let later = Task { try await injector.get(Engine.self) }
        release.open()
        let engine = try await later.value
        #expect(try await injector.get(Engine.self) === engine)
        #expect(built.value == 1)
    }

    @Test("a cancelled waiter on a scoped construction leaves; the builder's value is cached for the request")
    func scopedWaiterLeaves() async throws {
        let blocked = BlockedEngine()
        let (started, release, built) = (blocked.started, blocked.release, blocked.built)
        let injector = try await makeInjector { blocked.bind(on: $0, in: .scoped) }
        try await injector.withScope { scope in
            let builder = Task { try await scope.get(Engine.self) }
            await started.wait()
            let waiter = Task { try await scope.get(Engine.self) }
            waiter.cancel()
            let left = try await withDeadline(seconds: 20) { await waiter.result }
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
        let blocked = BlockedEngine()
        let (started, release, built) = (blocked.started, blocked.release, blocked.built)
        let injector = try await makeInjector { blocked.bind(on: $0, in: .transient) }
        let lazy = try await injector.get(Lazy<Engine>.self)
        let first = Task { try await lazy.value }
        await started.wait()
        first.cancel()
        let left = try await withDeadline(seconds: 20) { await first.result }
        #expect(throws: CancellationError.self) { try left.get() }
        let second = Task { try await lazy.value }
        release.open()
        let engine = try await second.value
        #expect(try await lazy.value === engine)
        #expect(built.value == 1)
    }
}

@Suite("The waiters of a shared outcome, as a state machine")
struct OutcomeWaitersTests {
    typealias Machine = OutcomeWaiters<Int, String>

    @Test("registered waiters are all handed the outcome once")
    func finishResumesAll() throws {
        var machine = Machine()
        let (a, b) = (0, 1)
        guard case .suspended = machine.register("a", as: a),
            case .suspended = machine.register("b", as: b)
        else {
            Issue.record("expected both to suspend")
            return
        }
        #expect(machine.finish(.success(7)) == ["a", "b"])
        #expect(machine.finish(.success(8)).isEmpty)
        #expect(try machine.result?.get() == 7)
    }

    @Test("identities come from a counter outside the machine, so they arrive in any order")
    func identitiesInAnyOrder() {
        var machine = Machine()
        // Waiter 5 is cancelled before any slot exists for it, waiter 3 registers before 2.
        #expect(machine.cancel(5) == nil)
        guard case .suspended = machine.register("3", as: 3), case .suspended = machine.register("2", as: 2) else {
            Issue.record("expected 3 and 2 to suspend")
            return
        }
        guard case .resume(let refused, let result) = machine.register("5", as: 5) else {
            Issue.record("expected the cancelled waiter to be refused")
            return
        }
        #expect(refused == "5")
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(machine.finish(.success(1)) == ["2", "3"])
    }

    @Test("a cancelled waiter is removed and not handed the outcome")
    func cancelRemoves() {
        var machine = Machine()
        let (a, b) = (0, 1)
        _ = machine.register("a", as: a)
        _ = machine.register("b", as: b)
        #expect(machine.cancel(a) == "a")
        #expect(machine.cancel(a) == nil)
        #expect(machine.finish(.success(1)) == ["b"])
        #expect(machine.cancel(b) == nil)
    }

    @Test("16,000 waiters, half of them cancelled: the others are each handed the outcome once")
    func manyWaiters() {
        var machine = Machine()
        let ids = Array(0..<16_000)
        for id in ids {
            guard case .suspended = machine.register("\(id)", as: id) else {
                Issue.record("waiter \(id) did not suspend")
                return
            }
        }
        let cancelled = ids.filter { $0.isMultiple(of: 2) }
        #expect(cancelled.compactMap { machine.cancel($0) } == cancelled.map { "\($0)" })
        let resumed = machine.finish(.success(1))
        #expect(Set(resumed) == Set(ids.filter { !$0.isMultiple(of: 2) }.map { "\($0)" }))
        #expect(resumed.count == 8_000)
        #expect(machine.finish(.success(2)).isEmpty)
    }

    @Test("a waiter cancelled before it registers is resumed at once with CancellationError, never registered")
    func cancelledBeforeRegistering() {
        var machine = Machine()
        let a = 0
        #expect(machine.cancel(a) == nil)
        guard case .resume(let waiter, let result) = machine.register("a", as: a) else {
            Issue.record("expected an immediate resume")
            return
        }
        #expect(waiter == "a")
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(machine.finish(.success(1)).isEmpty)
    }

    @Test("a waiter after the outcome is known gets it at once, even when cancelled")
    func lateWaiter() throws {
        var machine = Machine()
        _ = machine.finish(.failure(ProviderFailure(attempt: 1)))
        let late = 0
        #expect(machine.cancel(late) == nil)
        guard case .resume(_, let result) = machine.register("late", as: late) else {
            Issue.record("expected an immediate resume")
            return
        }
        #expect(throws: ProviderFailure(attempt: 1)) { try result.get() }
    }
}
