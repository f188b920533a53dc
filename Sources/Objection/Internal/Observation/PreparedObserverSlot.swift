import Synchronization

/// Where a binding keeps the ``BindingObserver`` prepared for it: set once, read by every
/// observed construction of the binding.
///
/// `AtomicLazyReference` does the same, but its generic `load()` is not specialized across the
/// module boundary and looked up its type metadata on every read (callgrind, objection-instructions
/// `request-scope-silently-observed`); this holds the reference's bits in an `Atomic<UInt>`.
struct PreparedObserverSlot: ~Copyable {
    /// A `+1` reference to an ``ObserverReference/Prepared``, or 0.
    private let bits = Atomic<UInt>(0)

    init() {}

    /// `body` applied to the prepared binding observer, unretained, if one was stored.
    @inline(__always)
    func withPrepared<Result>(_ body: (ObserverReference.Prepared) -> Result) -> Result? {
        guard let pointer = UnsafeRawPointer(bitPattern: bits.load(ordering: .acquiring)) else { return nil }
        return Unmanaged<ObserverReference.Prepared>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
    }

    /// Stores `prepared` unless one was stored first; answers the one stored.
    func storeIfEmpty(_ prepared: ObserverReference.Prepared) -> ObserverReference.Prepared {
        let retained = Unmanaged.passRetained(prepared)
        let (stored, _) = bits.compareExchange(
            expected: 0,
            desired: UInt(bitPattern: retained.toOpaque()),
            successOrdering: .acquiringAndReleasing,
            failureOrdering: .acquiring
        )
        if stored { return prepared }
        retained.release()
        return withPrepared { $0 } ?? prepared
    }

    deinit {
        if let pointer = UnsafeRawPointer(bitPattern: bits.load(ordering: .acquiring)) {
            Unmanaged<ObserverReference.Prepared>.fromOpaque(pointer).release()
        }
    }
}
