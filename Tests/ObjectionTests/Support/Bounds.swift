import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// How long a test may run, and which tests run at all. A wall-clock bound here only guards against
// a real hang, so it is generous: a test that needs something to happen first waits for it (a
// gate, a condition), never for a duration a slow host could miss.

extension Trait where Self == TimeLimitTrait {
    /// The time limit of every suite: ten minutes, a guard against a hang only. Longer than
    /// ``withDeadline(seconds:_:)``'s deadline, so that a deadlock fails with ``Hung`` first.
    static var hangLimit: Self { .timeLimit(.minutes(10)) }
}

/// How long ``withDeadline(seconds:_:)`` lets an operation run by default: five minutes.
let hangDeadline = 300

/// Whether the scale tests run: only when the environment has `OBJECTION_SCALE_TESTS=1`.
let scaleTestsEnabled: Bool = getenv("OBJECTION_SCALE_TESTS").map { String(cString: $0) } == "1"

extension Trait where Self == ConditionTrait {
    /// Runs a test only with `OBJECTION_SCALE_TESTS=1`: the 100,000-scale checks, which take most
    /// of a run's time and would starve the tests running beside them. `.ci/run` runs them in a
    /// step of their own: `OBJECTION_SCALE_TESTS=1 swift test --filter ScaleTests`.
    ///
    /// ```swift
    /// @Test("100,000 bindings build", .scale)
    /// ```
    static var scale: Self {
        .enabled(if: scaleTestsEnabled, "a scale test: runs with OBJECTION_SCALE_TESTS=1")
    }
}

/// A startup deadline a test means to pass, after work it cannot gate: the library's deadlines
/// read the system clock, which a test cannot drive, and a provider's first steps — entering it,
/// asking for its dependencies — must have run by then. Two seconds leaves a slow host a hundred
/// times what that work takes; the test waits it out, so it is no longer.
let deadlineAfterTheWork: Duration = .seconds(2)
