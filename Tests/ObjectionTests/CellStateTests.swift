import Testing

@testable import Objection

/// `CellState` driven by hand, without concurrency: every transition and what it tells its caller.
@Suite("Cell state machine")
struct CellStateTests {
    /// The value a cell holds; any class will do.
    final class Box: Sendable {}

    let key = BindingKey(Engine.self)

    @Test("the first claim of an empty cell builds")
    func firstClaimBuilds() {
        var cell = CellState()
        guard case .build(let construction) = cell.claim(as: key) else {
            Issue.record("expected .build")
            return
        }
        #expect(construction.key == key)
        #expect(cell.construction === construction)
        #expect(cell.value == nil)
    }

    @Test("later claims wait on one outcome, made by the first waiter")
    func laterClaimsShareOneOutcome() {
        var cell = CellState()
        guard case .build(let construction) = cell.claim(as: key),
            case .wait(let waited, let first) = cell.claim(as: key),
            case .wait(let waitedAgain, let second) = cell.claim(as: key)
        else {
            Issue.record("expected .build, then .wait twice")
            return
        }
        #expect(waited === construction && waitedAgain === construction)
        #expect(first === second)
        #expect(cell.outcome(of: construction) === first)
    }

    @Test("a shared claim starts the construction with its outcome, which later claims wait on")
    func sharedClaimStarts() {
        var cell = CellState()
        guard case .start(let construction, let outcome) = cell.claimShared(as: key),
            case .wait(let waited, let waitedOutcome) = cell.claim(as: key),
            case .wait(let sharedWaited, let sharedOutcome) = cell.claimShared(as: key)
        else {
            Issue.record("expected .start, then .wait twice")
            return
        }
        #expect(construction.key == key)
        #expect(waited === construction && sharedWaited === construction)
        #expect(waitedOutcome === outcome && sharedOutcome === outcome)
    }

    @Test("completing stores the value; nobody waited on an in-place construction, so no outcome")
    func completeWithoutWaiters() {
        var cell = CellState()
        guard case .build = cell.claim(as: key) else {
            Issue.record("expected .build")
            return
        }
        let box = Box()
        #expect(cell.complete(box) == nil)
        #expect(cell.value === box)
        #expect(cell.construction == nil)
        guard case .built(let built) = cell.claim(as: key), case .built(let sharedBuilt) = cell.claimShared(as: key)
        else {
            Issue.record("expected .built")
            return
        }
        #expect(built === box && sharedBuilt === box)
    }

    @Test("completing returns the outcome the waiters wait on")
    func completeWithWaiters() {
        var cell = CellState()
        guard case .build(let construction) = cell.claim(as: key),
            case .wait(_, let outcome) = cell.claim(as: key)
        else {
            Issue.record("expected .build, then .wait")
            return
        }
        #expect(cell.complete(Box()) === outcome)
        #expect(cell.outcome(of: construction) == nil)
    }

    @Test("completing a shared construction returns the outcome it started with")
    func completeShared() {
        var cell = CellState()
        guard case .start(_, let outcome) = cell.claimShared(as: key) else {
            Issue.record("expected .start")
            return
        }
        let box = Box()
        #expect(cell.complete(box) === outcome)
        #expect(cell.value === box)
    }

    @Test("a reset empties the cell, so the next claim builds again with a new construction")
    func resetBuildsAgain() {
        var cell = CellState()
        guard case .build(let first) = cell.claim(as: key), case .wait(_, let outcome) = cell.claim(as: key) else {
            Issue.record("expected .build, then .wait")
            return
        }
        #expect(cell.reset() === outcome)
        #expect(cell.value == nil)
        #expect(cell.construction == nil)
        #expect(cell.outcome(of: first) == nil)
        guard case .build(let second) = cell.claim(as: key) else {
            Issue.record("expected .build after the reset")
            return
        }
        #expect(second !== first)
        #expect(cell.outcome(of: first) == nil)
        #expect(cell.outcome(of: second) != nil)
    }

    @Test("a reset with nobody waiting returns no outcome")
    func resetWithoutWaiters() {
        var cell = CellState()
        _ = cell.claim(as: key)
        #expect(cell.reset() == nil)
        #expect(cell.reset() == nil)
    }

    @Test("the outcome of a construction that is not the current one is nil")
    func outcomeOfAnotherConstruction() {
        var cell = CellState()
        let stranger = Construction(key: key)
        #expect(cell.outcome(of: stranger) == nil)
        guard case .build(let current) = cell.claim(as: key) else {
            Issue.record("expected .build")
            return
        }
        #expect(cell.outcome(of: stranger) == nil)
        let outcome = cell.outcome(of: current)
        #expect(outcome != nil)
        #expect(cell.outcome(of: current) === outcome)
        guard case .wait(_, let waited) = cell.claim(as: key) else {
            Issue.record("expected .wait")
            return
        }
        #expect(waited === outcome)
        _ = cell.complete(Box())
        #expect(cell.outcome(of: current) == nil)
    }

    @Test("clearing a built cell returns its value and empties it; clearing an empty cell returns nil")
    func clear() {
        var cell = CellState()
        #expect(cell.clear() == nil)
        guard case .build(let first) = cell.claim(as: key) else {
            Issue.record("expected .build")
            return
        }
        #expect(cell.clear() == nil)
        #expect(cell.construction === first)
        let box = Box()
        _ = cell.complete(box)
        #expect(cell.clear() === box)
        #expect(cell.value == nil)
        #expect(cell.clear() == nil)
        guard case .build(let second) = cell.claim(as: key) else {
            Issue.record("expected .build after clearing")
            return
        }
        #expect(second !== first)
    }
}
