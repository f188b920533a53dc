/// Runs health checks concurrently, each on a task of its own cut at a deadline: a check that
/// does not answer in time is reported unhealthy and cancelled, and its result is not waited for.
enum HealthCheckRun {
    /// The results of `checks`, in their order, each within `timeout`.
    static func run(
        _ checks: [any HealthCheck],
        within timeout: Duration,
        monitor: HealthMonitor
    ) async -> [HealthCheckResult] {
        var outcomes: [SharedOutcome<HealthCheckResult>] = []
        var timers: [Task<Void, Never>] = []
        for (position, check) in checks.enumerated() {
            let outcome = SharedOutcome<HealthCheckResult>()
            outcomes.append(outcome)
            let named = NamedCheck(name: check.healthCheckName, isRequired: check.isRequiredForReadiness)
            // By position and name: two checks of one type, with one name, are two checks.
            let identity = "\(position) \(named.name)"
            guard monitor.begin(identity) else {
                outcome.finish(.success(named.unhealthy(after: .zero, "still running from an earlier probe")))
                continue
            }
            let start = ContinuousClock.now
            let work = Task {
                let result: HealthCheckResult
                do {
                    result = named.result(try await check.checkHealth(), after: .now - start)
                } catch {
                    result = named.unhealthy(after: .now - start, "threw \(type(of: error))")
                }
                monitor.end(identity)
                outcome.finish(.success(result))
            }
            timers.append(
                Task {
                    guard (try? await Task.sleep(for: timeout)) != nil else { return }
                    outcome.finish(.success(named.unhealthy(after: timeout, "no answer within \(timeout)")))
                    work.cancel()
                })
        }
        var results: [HealthCheckResult] = []
        for outcome in outcomes {
            // Each outcome is finished by its check or its timer; this task is never cancelled.
            if let result = try? await outcome.value() { results.append(result) }
        }
        for timer in timers { timer.cancel() }
        return results
    }

    /// What a result says of the check, whatever it answered.
    private struct NamedCheck: Sendable {
        let name: String
        let isRequired: Bool

        func result(_ status: HealthStatus, after duration: Duration, _ message: String? = nil) -> HealthCheckResult {
            HealthCheckResult(name: name, status: status, isRequired: isRequired, duration: duration, message: message)
        }

        func unhealthy(after duration: Duration, _ message: String) -> HealthCheckResult {
            result(.unhealthy, after: duration, message)
        }
    }
}
