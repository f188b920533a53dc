import Synchronization

/// The request scopes open on an injector that is not itself a scope, and on what derives from
/// it: what its shutdown drains before it disposes anything.
///
/// A scope counts in the tracker of the injector it is opened on (a scope's tracker is its
/// opener's) and in every tracker above it, so that a root's drain waits for the scopes of its
/// children too. Opening and ending a scope are an atomic add each per tracker, with no lock: the
/// lock is taken only while a drain is waiting.
///
/// Ordering: an opener adds itself before it reads ``isDraining``, and a drain sets it before it
/// reads the count, both sequentially consistent, so either the opener sees the drain (and
/// leaves) or the drain sees the opener (and waits for it).
final class OpenScopes: Sendable {
    /// The tracker of the injector above, whose drain this one's scopes count in too.
    let parent: OpenScopes?
    private let count = Atomic<Int>(0)
    private let draining = Atomic<Bool>(false)
    /// While a drain waits: how many open scopes it does not wait for (those its caller runs
    /// inside) and the outcome that ends its wait.
    private let waiting = Lock<(allowance: Int, drained: SharedOutcome<Void>)?>(nil)

    init(parent: OpenScopes?) {
        self.parent = parent
    }

    /// Whether a drain has begun: scopes opened from now on are refused unless nested in one
    /// that is open.
    var isDraining: Bool { draining.load(ordering: .sequentiallyConsistent) }

    /// How many scopes are open.
    var openCount: Int { count.load(ordering: .sequentiallyConsistent) }

    /// Counts a scope opening here and in every tracker above; `false`, counting nothing, when one
    /// of them is draining and `isNested` says the opener is not inside a request in flight
    /// counted in that one.
    func open(isNested: (OpenScopes) -> Bool) -> Bool {
        var tracker: OpenScopes? = self
        while let current = tracker {
            current.count.wrappingAdd(1, ordering: .sequentiallyConsistent)
            if current.isDraining && !isNested(current) {
                var counted: OpenScopes? = self
                while let undone = counted {
                    undone.closeOne()
                    counted = undone === current ? nil : undone.parent
                }
                return false
            }
            tracker = current.parent
        }
        return true
    }

    /// Counts a scope ending here and in every tracker above, ending a drain that waits for it.
    func close() {
        var tracker: OpenScopes? = self
        while let current = tracker {
            current.closeOne()
            tracker = current.parent
        }
    }

    /// Counts a scope ending in this tracker alone.
    private func closeOne() {
        count.wrappingSubtract(1, ordering: .sequentiallyConsistent)
        guard isDraining else { return }
        // The count is read under the lock, so a drain that registers after this decrement sees
        // it, and one that registered before is finished here.
        let drained = waiting.withLock { waiting -> SharedOutcome<Void>? in
            guard let current = waiting, openCount <= current.allowance else { return nil }
            waiting = nil
            return current.drained
        }
        drained?.finish(.success(()))
    }

    /// Begins the drain: refuses new scopes from now on, and returns what to await until no more
    /// than `allowance` scopes are open, or `nil` when none more are already.
    func drain(allowing allowance: Int) -> SharedOutcome<Void>? {
        draining.store(true, ordering: .sequentiallyConsistent)
        return waiting.withLock { waiting in
            guard openCount > allowance else { return nil }
            let drained = SharedOutcome<Void>()
            waiting = (allowance, drained)
            return drained
        }
    }
}

extension OpenScopes {
    /// Whether a scope counted here counts in `tracker` too: `tracker` is this one or above it.
    func counts(in tracker: OpenScopes) -> Bool {
        var current: OpenScopes? = self
        while let candidate = current {
            if candidate === tracker { return true }
            current = candidate.parent
        }
        return false
    }
}
