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
        #expect(cell.outcomeInFlight() === first)
    }

    @Test("a shared claim starts the construction with its outcome, which later claims wait on")
    func sharedClaimStarts() {
        var cell = CellState()
        guard case .build(let (construction, outcome)) = cell.claimToStart(as: key),
            case .wait(let waited, let waitedOutcome) = cell.claim(as: key),
            case .wait(let sharedWaited, let sharedOutcome) = cell.claimToStart(as: key)
        else {
            Issue.record("expected .build, then .wait twice")
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
        guard case .built(let built) = cell.claim(as: key), case .built(let sharedBuilt) = cell.claimToStart(as: key)
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
        #expect(cell.outcomeInFlight() == nil)
        #expect(cell.construction == nil && construction.key == key)
    }

    @Test("completing a shared construction returns the outcome it started with")
    func completeShared() {
        var cell = CellState()
        guard case .build(let (_, outcome)) = cell.claimToStart(as: key) else {
            Issue.record("expected .build")
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
        #expect(cell.outcomeInFlight() == nil)
        guard case .build(let second) = cell.claim(as: key) else {
            Issue.record("expected .build after the reset")
            return
        }
        #expect(second !== first)
        #expect(cell.construction === second)
        #expect(cell.outcomeInFlight() != nil)
    }

    @Test("a reset with nobody waiting returns no outcome")
    func resetWithoutWaiters() {
        var cell = CellState()
        _ = cell.claim(as: key)
        #expect(cell.reset() == nil)
        #expect(cell.reset() == nil)
    }

    @Test("the outcome in flight is made once, shared with later waiters, and gone once the cell is built")
    func outcomeInFlight() {
        var cell = CellState()
        #expect(cell.outcomeInFlight() == nil)
        guard case .build = cell.claim(as: key) else {
            Issue.record("expected .build")
            return
        }
        let outcome = cell.outcomeInFlight()
        #expect(outcome != nil)
        #expect(cell.outcomeInFlight() === outcome)
        guard case .wait(_, let waited) = cell.claim(as: key) else {
            Issue.record("expected .wait")
            return
        }
        #expect(waited === outcome)
        #expect(cell.complete(Box()) === outcome)
        #expect(cell.outcomeInFlight() == nil)
    }

    @Test("an in-place claim allocates no construction; the first waiter names one, which later waiters share")
    func inPlaceClaimNamedByFirstWaiter() {
        var cell = CellState()
        guard case .build = cell.claimInPlace(as: key) else {
            Issue.record("expected .build")
            return
        }
        #expect(cell.isBuilding)
        #expect(cell.construction == nil)
        guard case .wait(let named, let outcome) = cell.claimInPlace(as: key),
            case .wait(let namedAgain, let outcomeAgain) = cell.claimToStart(as: key)
        else {
            Issue.record("expected .wait twice")
            return
        }
        #expect(named.key == key)
        #expect(cell.construction === named)
        #expect(namedAgain === named && outcomeAgain === outcome)
        let box = Box()
        #expect(cell.complete(box) === outcome)
        #expect(!cell.isBuilding)
        guard case .built(let built) = cell.claimInPlace(as: key) else {
            Issue.record("expected .built")
            return
        }
        #expect(ObjectIdentifier(built) == ObjectIdentifier(box))
    }

    @Test("an outcome taken for an unnamed in-place construction is the one its first waiter gets")
    func inPlaceOutcomeBeforeWaiter() {
        var cell = CellState()
        _ = cell.claimInPlace(as: key)
        let outcome = cell.outcomeInFlight()
        guard case .wait(let named, let waited) = cell.claim(as: key),
            case .wait(let namedAgain, _) = cell.claim(as: key)
        else {
            Issue.record("expected .wait twice")
            return
        }
        #expect(waited === outcome)
        #expect(namedAgain === named)
        #expect(cell.reset() === outcome)
        #expect(!cell.isBuilding)
        guard case .build = cell.claimInPlace(as: key) else {
            Issue.record("expected .build after the reset")
            return
        }
    }

    @Test("a join reads a built value, joins a construction in flight counting the join, and ignores an empty cell")
    func join() {
        var cell = CellState()
        #expect(cell.join(as: key) == nil)
        guard case .build(let (construction, outcome)) = cell.claimToStart(as: key),
            case .wait(let joined, let joinedOutcome)? = cell.join(as: key)
        else {
            Issue.record("expected .build, then a joined .wait")
            return
        }
        #expect(joined === construction && joinedOutcome === outcome)
        #expect(construction.joins == 1)
        let box = Box()
        #expect(cell.complete(box) === outcome)
        guard case .built(let built)? = cell.join(as: key) else {
            Issue.record("expected .built")
            return
        }
        #expect(ObjectIdentifier(built) == ObjectIdentifier(box))
    }

    @Test("ending a named construction that is no longer the one in flight changes nothing")
    func endStaleConstruction() {
        var cell = CellState()
        guard case .build(let first) = cell.claim(as: key) else {
            Issue.record("expected .build")
            return
        }
        _ = cell.reset()
        guard case .build(let second) = cell.claim(as: key) else {
            Issue.record("expected .build after the reset")
            return
        }
        let ending = cell.end(first, storing: Box())
        #expect(!ending.wasCurrent && ending.outcome == nil)
        #expect(cell.construction === second && cell.value == nil)
        #expect(cell.end(second, storing: nil).wasCurrent)
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

extension CellState {
    /// Ends the claimant's construction with `value`, as a build in place does.
    fileprivate mutating func complete(_ value: Value) -> SharedOutcome<Value?>? {
        end(nil, storing: value).outcome
    }
}
