/// An injector's health probes: the run in flight, which every concurrent caller shares, the last
/// results, reused while they are young, and the checks still running — one that passed its
/// deadline and has not returned is not started again until it does.
final class HealthMonitor: Sendable {
    private struct State {
        var inFlight: SharedOutcome<[HealthCheckResult]>?
        var cached: (results: [HealthCheckResult], at: ContinuousClock.Instant)?
        var running: Set<String> = []
    }

    private let state = Lock(State())

    init() {}

    /// The checks' results: the cached ones if younger than `maxAge`, else those of the run in
    /// flight, else of a new run of `run` on a task of its own (a caller that leaves does not end
    /// it). `nil` when the caller is cancelled while it waits.
    func results(
        maxAge: Duration,
        run: @escaping @Sendable () async -> [HealthCheckResult]
    ) async -> [HealthCheckResult]? {
        enum Step {
            case cached([HealthCheckResult])
            case join(SharedOutcome<[HealthCheckResult]>)
            case start(SharedOutcome<[HealthCheckResult]>)
        }
        let now = ContinuousClock.now
        let step = state.withLock { state -> Step in
            if let cached = state.cached, now - cached.at < maxAge { return .cached(cached.results) }
            if let inFlight = state.inFlight { return .join(inFlight) }
            let outcome = SharedOutcome<[HealthCheckResult]>()
            state.inFlight = outcome
            return .start(outcome)
        }
        switch step {
        case .cached(let results):
            return results
        case .join(let outcome):
            return try? await outcome.value()
        case .start(let outcome):
            Task {
                let results = await run()
                state.withLock { state in
                    state.inFlight = nil
                    state.cached = (results, .now)
                }
                outcome.finish(.success(results))
            }
            return try? await outcome.value()
        }
    }

    /// Marks the check `name` running; `false` when it still is, from an earlier run.
    func begin(_ name: String) -> Bool {
        state.withLock { $0.running.insert(name).inserted }
    }

    /// Marks the check `name` returned.
    func end(_ name: String) {
        _ = state.withLock { $0.running.remove(name) }
    }
}
