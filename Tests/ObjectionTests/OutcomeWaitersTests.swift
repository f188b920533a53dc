import Testing

@testable import Objection

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
