import Synchronization

/// What happened, in order, as a test's fakes record it: constructions, disposals, handler steps,
/// services starting and ending.
///
/// ```swift
/// let events = EventLog()
/// binder.bind(Clock.self).to { _ in events.record("clock built"); return Clock() }
/// …
/// #expect(events.all == ["clock built", "clock disposed"])
/// ```
public final class EventLog: Sendable {
    private let events = Mutex<[String]>([])

    /// Creates an empty log.
    public init() {}

    /// Appends `event`.
    public func record(_ event: String) {
        events.withLock { $0.append(event) }
    }

    /// Every event so far, oldest first.
    public var all: [String] { events.withLock { $0 } }
}
