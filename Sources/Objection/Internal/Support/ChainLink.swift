import Synchronization

/// A strong reference from an object to the next one of a chain the user can make as long as
/// they like — an injector's parent, a table's parent — released without a recursion as deep as
/// the chain.
///
/// Releasing the last reference to an object runs its deinitializer, which releases its own link,
/// and so on up the chain: 100,000 nested child injectors, dropped at once, would nest 100,000
/// deinitializers on one thread's stack. So every ``interval``-th object of a chain hands its
/// link to ``DeferredReleases`` instead, which releases it from a loop: however long the chain,
/// at most ``interval`` deinitializers nest. Objects closer to the root than that — every request
/// scope, every ordinary child — release their link directly, at no extra cost.
///
/// ```swift
/// let parent: ChainLink<InjectorActor>   // `parent.object` reads it; dropping the holder releases it
/// ```
struct ChainLink<Object: AnyObject>: ~Copyable, @unchecked Sendable {
    /// One retain, taken at initialization and given back by `deinit`.
    let reference: Unmanaged<Object>?
    /// The holder's distance from the chain's root (the root's is 0).
    let depth: Int

    /// How many objects of a chain release their link directly before one defers it.
    static var interval: Int { 64 }

    /// A link to `object`, held by the object `depth` steps from the chain's root.
    init(_ object: Object?, depth: Int) {
        self.reference = object.map { Unmanaged.passRetained($0) }
        self.depth = depth
    }

    /// The object linked to, if any.
    var object: Object? { reference?.takeUnretainedValue() }

    deinit {
        guard let reference else { return }
        if depth % Self.interval == 0 {
            DeferredReleases.release(Unmanaged<AnyObject>.fromOpaque(reference.toOpaque()))
        } else {
            reference.release()
        }
    }
}

/// Releases the references handed to it one after another, from a loop rather than from within
/// each other's deinitializers (see ``ChainLink``). The first thread to hand one over drains the
/// list, including whatever the releases it makes hand over; another thread arriving meanwhile
/// only adds to it.
enum DeferredReleases {
    private struct State: @unchecked Sendable {
        var pending: [Unmanaged<AnyObject>] = []
        var isDraining = false
    }

    private static let state = Mutex(State())

    /// Releases `reference`, now or from the loop of the thread already draining.
    static func release(_ reference: Unmanaged<AnyObject>) {
        let drains = state.withLock { state in
            state.pending.append(reference)
            guard !state.isDraining else { return false }
            state.isDraining = true
            return true
        }
        guard drains else { return }
        while let next = state.withLock({ state -> Unmanaged<AnyObject>? in
            if let next = state.pending.popLast() { return next }
            state.isDraining = false
            return nil
        }) {
            next.release()
        }
    }
}
