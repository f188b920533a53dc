import Synchronization

/// The cache slot of one cached binding in one injector.
///
/// Reads take a short uncontended lock and never suspend, so a hit on a built singleton needs no
/// actor hop. Provider code never runs while the lock is held.
final class SingletonCell<T: Sendable>: AnySingletonCell {
    private let storage = Mutex<T?>(nil)

    var value: T? { storage.withLock { $0 } }

    func store(_ value: T) {
        storage.withLock { $0 = value }
    }
}

/// Lets the injector hold cells of every type in one array.
protocol AnySingletonCell: AnyObject, Sendable {}
