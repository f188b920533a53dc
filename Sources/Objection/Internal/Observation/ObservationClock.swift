/// The continuous clock as the observation path keeps it: an instant as its offset from a fixed
/// origin read once per process.
///
/// `ContinuousClock.Instant` is a resilient type: a value that holds one has no layout the
/// compiler knows, and every copy, store and destruction of it goes through the runtime's value
/// witnesses. An offset is a `Duration`, which is frozen; `ObservedConstruction` and the
/// synchronous path's notes hold offsets and make an instant only when one is asked for
/// (objection-instructions `request-scope-recorded`, Benchmarks/README "Observer cost").
enum ObservationClock {
    /// The instant offsets count from.
    static let origin = ContinuousClock.now

    /// Now, as an offset from ``origin``.
    static func now() -> Duration {
        ContinuousClock.now - origin
    }

    /// The instant at `offset` from ``origin``.
    static func instant(at offset: Duration) -> ContinuousClock.Instant {
        origin.advanced(by: offset)
    }
}
