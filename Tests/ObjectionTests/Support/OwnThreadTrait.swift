import Testing

/// Runs each test of a suite on one thread of its own (``DedicatedThreadExecutor``), outside the
/// cooperative pool, one test at a time, at the lowest scheduling priority.
///
/// For tests that spend long stretches in synchronous code — building 100,000 bindings, drawing
/// their graph — which on the pool (two threads on a two-core machine, slower still under a
/// sanitizer) would starve every other suite running meanwhile into its time limit. At the lowest
/// priority, the thread takes only the CPU time the other suites leave.
///
/// ```swift
/// @Suite("Very long chains", .serialized, .onItsOwnThread)
/// ```
struct OwnThreadTrait: SuiteTrait, TestTrait, TestScoping {
    private static let executor = DedicatedThreadExecutor(niceness: 19)

    var isRecursive: Bool { true }

    @concurrent
    func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @concurrent @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(Self.executor) { try await function() }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Runs each test on one thread of its own, outside the cooperative pool (``OwnThreadTrait``).
    static var onItsOwnThread: Self { OwnThreadTrait() }
}
