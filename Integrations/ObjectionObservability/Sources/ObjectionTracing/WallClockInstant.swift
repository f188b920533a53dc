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

    /// This instant moved by `offset`.
    func advanced(by offset: Duration) -> WallClockInstant {
        // Saturating: a span placed at the epoch or at the end of time is wrong, not a crash.
        let (moved, overflow) = Int64(clamping: nanosecondsSinceEpoch).addingReportingOverflow(
            Self.nanoseconds(in: offset))
        return WallClockInstant(nanosecondsSinceEpoch: overflow ? (offset > .zero ? .max : 0) : UInt64(clamping: moved))
    }

    private init(nanosecondsSinceEpoch: UInt64) {
        self.nanosecondsSinceEpoch = nanosecondsSinceEpoch
    }

    private static func nanoseconds(in duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue &+ attoseconds / 1_000_000_000
    }

    static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.nanosecondsSinceEpoch < rhs.nanosecondsSinceEpoch
    }
}
