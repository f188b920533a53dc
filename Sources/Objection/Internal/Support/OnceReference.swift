import Synchronization

/// A reference set once and read often: what a binding makes the first time it is observed (its
/// ``ObservedSubject``, its observer's ``BindingObserver``) and keeps for its lifetime.
///
/// `AtomicLazyReference` does the same, but its generic `load()` is not specialized across the
/// module boundary and looked up its type's metadata on every read (callgrind, objection-instructions
/// `request-scope-silently-observed`); this holds the reference's bits in an `Atomic<UInt>`.
struct OnceReference<Instance: AnyObject & Sendable>: ~Copyable {
    /// A `+1` reference to an `Instance`, or 0.
    private let bits = Atomic<UInt>(0)

    init() {}

    /// `body` applied to the instance, unretained, if one was stored.
    func withInstance<Result>(_ body: (Instance) -> Result) -> Result? {
        guard let pointer = UnsafeRawPointer(bitPattern: bits.load(ordering: .acquiring)) else { return nil }
        return Unmanaged<Instance>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
    }

    /// The instance stored, storing the one `make` makes if there is none; when two tasks store
    /// at once, both get the one stored first.
    func instance(orMake make: () -> Instance) -> Instance {
        if let stored = withInstance({ $0 }) { return stored }
        let made = make()
        let retained = Unmanaged.passRetained(made)
        let (stored, _) = bits.compareExchange(
            expected: 0,
            desired: UInt(bitPattern: retained.toOpaque()),
            successOrdering: .acquiringAndReleasing,
            failureOrdering: .acquiring
        )
        if stored { return made }
        retained.release()
        return withInstance { $0 } ?? made
    }

    deinit {
        if let pointer = UnsafeRawPointer(bitPattern: bits.load(ordering: .acquiring)) {
            Unmanaged<Instance>.fromOpaque(pointer).release()
        }
    }
}
