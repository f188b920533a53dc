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
