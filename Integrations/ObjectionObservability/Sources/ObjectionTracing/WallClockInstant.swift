import Tracing

/// The wall-clock time of a `ContinuousClock` instant, as a tracer wants it.
///
/// A construction built without suspending is reported when its `get` returns, so its span is
/// started after the fact: its start is placed by how long ago it happened, not by when the
/// observer hears of it. Its end is the start plus the construction's duration, so that a span
/// reads both clocks once, when it starts.
struct WallClockInstant: TracerInstant {
    let nanosecondsSinceEpoch: UInt64

    /// The wall-clock time of `instant`, read from both clocks now.
    init(_ instant: ContinuousClock.Instant) {
        let now = WallClockInstant(nanosecondsSinceEpoch: DefaultTracerClock.now.nanosecondsSinceEpoch)
        self = now.advanced(by: instant - .now)
    }

    /// This instant moved by `offset`, saturating at the epoch and at `UInt64.max`.
    func advanced(by offset: Duration) -> WallClockInstant {
        // Past ±292 years no Int64 holds the nanoseconds, and `components` traps past 2^63 s.
        let limit = Duration.nanoseconds(Int64.max)
        guard offset < limit else { return WallClockInstant(nanosecondsSinceEpoch: .max) }
        guard offset > .zero - limit else { return WallClockInstant(nanosecondsSinceEpoch: 0) }
        let (seconds, attoseconds) = offset.components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        let (moved, overflow) = Int64(clamping: nanosecondsSinceEpoch).addingReportingOverflow(nanoseconds)
        return WallClockInstant(nanosecondsSinceEpoch: overflow ? .max : UInt64(clamping: moved))
    }

    private init(nanosecondsSinceEpoch: UInt64) {
        self.nanosecondsSinceEpoch = nanosecondsSinceEpoch
    }

    static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.nanosecondsSinceEpoch < rhs.nanosecondsSinceEpoch
    }
}
