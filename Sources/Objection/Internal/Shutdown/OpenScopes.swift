import Synchronization

/// The count of request scopes open on an injector that is not itself a scope, and on what
/// derives from it: what its shutdown drains before it disposes anything. Stored in the injector
/// itself, so that creating a child allocates nothing more for it.
///
/// A scope counts in its opener's tracker (see ``InjectorActor/scopeTracker``) and in every
/// tracker above, so that a root's drain waits for the scopes of its children too. Opening and
/// ending a scope are an atomic add each per tracker, with no lock: the lock is taken only while a
/// drain is waiting.
///
/// Ordering: an opener adds itself before it reads ``isDraining``, and a drain sets it before it
/// reads the count, both sequentially consistent, so either the opener sees the drain (and
/// leaves) or the drain sees the opener (and waits for it).
struct OpenScopes: ~Copyable, Sendable {
    /// A drain's wait: the open scopes it does not wait for (those its caller runs inside, by
    /// identity — each leaves the set when it ends, so that a scope ending cannot stand for another
    /// still open), and the outcome that ends it.
    struct Waiting: Sendable {
        var exempt: Set<ObjectIdentifier>
        let drained: SharedOutcome<Void>
    }

    /// The drains waiting — a shutdown and a ``InjectorActor/drain(within:)`` may wait at once —
    /// under a lock the thread sanitizer sees; made by the first drain, so that an injector (a
    /// request scope among them) that never drains allocates nothing for it.
    final class WaitingList: Sendable {
        let lock = Lock<[Waiting]>([])
    }

    private let count = Atomic<Int>(0)
    private let draining = Atomic<Bool>(false)
    private let waitingStorage = AtomicLazyReference<WaitingList>()

    /// The list of drains waiting, made on first use.
    private var waiting: Lock<[Waiting]> {
        (waitingStorage.load() ?? waitingStorage.storeIfNil(WaitingList())).lock
    }

    init() {}

    /// Whether a drain has begun: scopes opened from now on are refused unless nested in one
    /// that is open.
    var isDraining: Bool { draining.load(ordering: .sequentiallyConsistent) }

    /// How many scopes are open.
    var openCount: Int { count.load(ordering: .sequentiallyConsistent) }

    /// Counts a scope opening.
    func add() {
        count.wrappingAdd(1, ordering: .sequentiallyConsistent)
    }

    /// Counts the scope `scope` ending, ending the drains that wait for it and no other.
    func remove(_ scope: ObjectIdentifier) {
        count.wrappingSubtract(1, ordering: .sequentiallyConsistent)
        guard isDraining else { return }
        // The count is read under the lock, so a drain that registers after this decrement sees
        // it, and one that registered before is finished here.
        let drained = waiting.withLock { waiting -> [SharedOutcome<Void>] in
            let open = openCount
            var finished: [SharedOutcome<Void>] = []
            var still: [Waiting] = []
            for var wait in waiting {
                wait.exempt.remove(scope)
                if open <= wait.exempt.count {
                    finished.append(wait.drained)
                } else {
                    still.append(wait)
                }
            }
            waiting = still
            return finished
        }
        for outcome in drained { outcome.finish(.success(())) }
    }

    /// Begins a drain: refuses new scopes from now on, and returns what to await until no scope is
    /// open but those of `exempt` (the scopes its caller runs inside), or `nil` when none is
    /// already.
    func drain(exempting exempt: Set<ObjectIdentifier>) -> SharedOutcome<Void>? {
        draining.store(true, ordering: .sequentiallyConsistent)
        return waiting.withLock { waiting in
            guard openCount > exempt.count else { return nil }
            let drained = SharedOutcome<Void>()
            waiting.append(Waiting(exempt: exempt, drained: drained))
            return drained
        }
    }
}

extension InjectorActor {
    /// The injector whose ``openScopes`` count the scopes opened on this one: itself, or for a
    /// scope, its opener's tracker.
    nonisolated var scopeTracker: InjectorActor { trackerAbove ?? self }

    /// Counts a scope opening on this injector in every tracker from its own up; `false`,
    /// counting nothing, when one of them is draining and `isNested` says the opener is not
    /// inside a request in flight counted in that one. The usual case — one tracker, the root,
    /// not draining — is an atomic add and an atomic load.
    nonisolated func countScopeOpening(isNested: (InjectorActor) -> Bool) -> Bool {
        let first = scopeTracker
        first.openScopes.add()
        guard first.openScopes.isDraining || first.parentTracker != nil else { return true }
        var tracker: InjectorActor? = first
        while let current = tracker {
            if current !== first { current.openScopes.add() }
            if current.openScopes.isDraining && !isNested(current) {
                var counted: InjectorActor? = first
                while let undone = counted {
                    undone.openScopes.remove(ObjectIdentifier(self))
                    counted = undone === current ? nil : undone.parentTracker
                }
                return false
            }
            tracker = current.parentTracker
        }
        return true
    }

    /// Counts a scope opened on this injector ending, in every tracker from its own up, and
    /// forgets the scope it was opened in.
    nonisolated func countScopeEnd() {
        forgetOpenedWithin()
        let id = ObjectIdentifier(self)
        let first = scopeTracker
        first.openScopes.remove(id)
        var tracker = first.parentTracker
        while let current = tracker {
            current.openScopes.remove(id)
            tracker = current.parentTracker
        }
    }

    /// Whether a scope opened on this injector counts in `tracker`: `tracker` is its own or above.
    nonisolated func countsScopes(in tracker: InjectorActor) -> Bool {
        var current: InjectorActor? = scopeTracker
        while let candidate = current {
            if candidate === tracker { return true }
            current = candidate.parentTracker
        }
        return false
    }
}
