/// The cache slot of one cached binding in one injector.
///
/// Reads take a short uncontended lock and never suspend, so a hit on a built singleton needs no
/// actor hop. Provider code never runs while the lock is held. The value is boxed in a
/// ``Built`` so that the cell itself is not generic.
@usableFromInline
final class SingletonCell: Sendable {
    @usableFromInline let storage = Lock<(any AnyObject & Sendable)?>(nil)

    init() {}

    /// The built value, if any. `T` must be the type of the binding that owns the cell.
    @inlinable
    func value<T: Sendable>(as type: T.Type) -> T? {
        storage.withLock { built in built.map(Built<T>.unbox) }
    }

    /// The built value, or a request to leave the synchronous path. Non-optional so that code
    /// not specialised for `T` needs no metadata for `T?`.
    @inlinable
    func builtValue<T: Sendable>(as type: T.Type) throws(SynchronousResolutionUnavailable) -> T {
        guard let built = storage.withLock({ $0 }) else { throw SynchronousResolutionUnavailable() }
        return Built<T>.unbox(built)
    }

    @usableFromInline
    var isBuilt: Bool { storage.withLock { $0 != nil } }

    /// Empties the cell, releasing its value.
    func clear() {
        let released = storage.withLock { storage in
            defer { storage = nil }
            return storage
        }
        _ = released
    }

    func store<T: Sendable>(_ value: T) {
        let built = Built(value)
        storage.withLock { $0 = built }
    }
}

/// A built value, boxed so that cells of every type share one layout.
@usableFromInline
final class Built<T: Sendable>: Sendable {
    @usableFromInline let value: T

    init(_ value: T) {
        self.value = value
    }

    /// The value in `box`, a `Built<T>` taken from a cell.
    ///
    /// A cell belongs to one binding and only ever holds boxes of that binding's type, and every
    /// caller has checked the binding's type to be `T` first (``Binding/produces(_:)``). That is
    /// the proof this unchecked downcast relies on, and the only place it is made.
    @inlinable
    static func unbox(_ box: any AnyObject & Sendable) -> T {
        unsafeDowncast(box, to: Built<T>.self).value
    }
}
