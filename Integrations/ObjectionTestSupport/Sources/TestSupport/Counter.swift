import Synchronization

/// A count that tasks add to, read by the test after they are done; or serial numbers from 1.
///
/// ```swift
/// let calls = Counter()
/// binder.bind(Clock.self).to { _ in calls.increment(); return Clock() }
/// …
/// #expect(calls.value == 1)
/// ```
public final class Counter: Sendable {
    private let count = Mutex(0)

    /// Creates a count of zero.
    public init() {}

    /// Adds one, and answers the new count: serial numbers from 1.
    @discardableResult
    public func increment() -> Int {
        count.withLock {
            $0 += 1
            return $0
        }
    }

    /// The count so far.
    public var value: Int { count.withLock { $0 } }
}
