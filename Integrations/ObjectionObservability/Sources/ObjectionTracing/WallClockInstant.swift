import Tracing

/// The wall-clock time of a `ContinuousClock` instant, as a tracer wants it.
///
/// A construction built without suspending is reported when its `get` returns, so its span is
/// started after the fact: its start and end are placed by how long ago they happened, not by when
/// the observer hears of them.
struct WallClockInstant: TracerInstant {
    let nanosecondsSinceEpoch: UInt64

    /// The wall-clock time of `instant` moved by `offset`.
    init(_ instant: ContinuousClock.Instant, plus offset: Duration = .zero) {
        let ago = ContinuousClock.now - (instant + offset)
        let now = DefaultTracerClock.now.nanosecondsSinceEpoch
        let agoNanoseconds = ago.components.seconds * 1_000_000_000 + ago.components.attoseconds / 1_000_000_000
        self.nanosecondsSinceEpoch = UInt64(clamping: Int64(clamping: now) - agoNanoseconds)
    }

    static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.nanosecondsSinceEpoch < rhs.nanosecondsSinceEpoch
    }
}
