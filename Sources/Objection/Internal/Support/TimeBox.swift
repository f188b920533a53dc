/// Work given a time to finish in: what start-up (``StartupRun``) and a refresh's wait for a
/// first build (``RefreshRun``) race against their deadlines.
///
/// ```swift
/// guard try await TimeBox.run(within: .seconds(30), { try await build() }) else { throw timedOut }
/// ```
enum TimeBox {
    /// Runs `work`, cancelling it once `timeout` has passed: whether it finished in time. A
    /// timeout of ``InjectorActor/longestDeadline`` or more is none: the clock cannot count that
    /// far (a sleep that long traps), and nothing waits that long anyway.
    static func run(within timeout: Duration, _ work: @escaping @Sendable () async throws -> Void) async throws -> Bool
    {
        guard timeout < InjectorActor.longestDeadline else {
            try await work()
            return true
        }
        return try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await work()
                return true
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return false
            }
            defer { group.cancelAll() }
            return try await group.next() ?? true
        }
    }
}
