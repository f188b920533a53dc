/// An injector's health probes: the run in flight, which every concurrent caller shares, the last
/// results, reused while they are young, and the checks still running — one that passed its
/// deadline and has not returned is not started again until it does.
final class HealthMonitor: Sendable {
    private struct State {
        var inFlight: SharedOutcome<[HealthCheckResult]>?
        var cached: (results: [HealthCheckResult], at: ContinuousClock.Instant)?
        /// The sources still running, each with the names of its checks as far as known.
        var running: [String: Lock<[HealthCheckRun.NamedCheck]>] = [:]
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

    /// Marks the source `identity` running, its checks named by `names`; when it still runs
    /// from an earlier probe, the names of that run instead.
    func begin(
        _ identity: String,
        naming names: Lock<[HealthCheckRun.NamedCheck]>
    ) -> Lock<[HealthCheckRun.NamedCheck]>? {
        state.withLock { state in
            if let running = state.running[identity] { return running }
            state.running[identity] = names
            return nil
        }
    }

    /// Marks the source `identity` returned.
    func end(_ identity: String) {
        _ = state.withLock { $0.running.removeValue(forKey: identity) }
    }
}
