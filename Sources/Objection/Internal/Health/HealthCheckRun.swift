/// Runs health checks concurrently, each on a task of its own cut at a deadline that covers
/// resolving the check as well as running it: a check that does not answer in time — or cannot be
/// built in time — is reported unhealthy and cancelled, and its result is not waited for.
enum HealthCheckRun {
    /// The results of the checks `sources` give, in their order, each within `timeout`.
    static func run(
        _ sources: [HealthCheckSource],
        within timeout: Duration,
        monitor: HealthMonitor
    ) async -> [HealthCheckResult] {
        var outcomes: [SharedOutcome<[HealthCheckResult]>] = []
        for (position, source) in sources.enumerated() {
            let outcome = SharedOutcome<[HealthCheckResult]>()
            outcomes.append(outcome)
            let unresolved = NamedCheck(name: source.name, isRequired: true)
            // By position and name: two sources of one name are two.
            let identity = "\(position) \(source.name)"
            // The checks once resolved, so that a check cut at the deadline is reported by its own
            // name; before that, by its source's.
            let resolved = Lock<[NamedCheck]>(source.ready?.map(NamedCheck.init) ?? [unresolved])
            if let running = monitor.begin(identity, naming: resolved) {
                let named = running.withLock { $0 }
                outcome.finish(
                    .success(named.map { $0.unhealthy(after: .zero, "still running from an earlier probe") }))
                continue
            }
            Task {
                await runSource(source, within: timeout, naming: resolved, into: outcome)
                monitor.end(identity)
            }
        }
        var results: [HealthCheckResult] = []
        for outcome in outcomes {
            // Each outcome is finished by its source's task or its deadline; this task is never
            // cancelled.
            if let finished = try? await outcome.value() { results += finished }
        }
        return results
    }

    /// Resolves `source`'s checks and runs them, finishing `outcome` with their results, or with
    /// "no answer" at the deadline. The deadline counts from when this task runs, so that a
    /// loaded machine's scheduling is not charged to the check. At the deadline the checks are
    /// cancelled; a resolution in progress is not — a waiter cancelled would leave the
    /// construction it waits for, and the next probe would wait for it again instead of
    /// reporting it still running — and the checks it yields late are not run.
    private static func runSource(
        _ source: HealthCheckSource,
        within timeout: Duration,
        naming resolved: Lock<[NamedCheck]>,
        into outcome: SharedOutcome<[HealthCheckResult]>
    ) async {
        let start = ContinuousClock.now
        let checking = Lock<(task: Task<[HealthCheckResult], Never>?, isLate: Bool)>((nil, false))
        let deadline = Task {
            // A timeout past the longest kept is none (`Task.sleep` traps past `Int64` nanoseconds).
            guard (try? await Task.sleep(for: min(timeout, InjectorActor.longestDeadline))) != nil else { return }
            let named = resolved.withLock { $0 }
            outcome.finish(.success(named.map { $0.unhealthy(after: timeout, "no answer within \(timeout)") }))
            checking.withLock { state in
                state.isLate = true
                return state.task
            }?.cancel()
        }
        defer { deadline.cancel() }
        let checks: [any HealthCheck]
        do {
            if let ready = source.ready {
                checks = ready
            } else {
                checks = try await source.checks()
            }
        } catch {
            let message = "resolving the checks threw \(type(of: error))"
            outcome.finish(.success(resolved.withLock { $0 }.map { $0.unhealthy(after: .now - start, message) }))
            return
        }
        resolved.withLock { $0 = checks.map(NamedCheck.init) }
        let task = Task { await results(of: checks, since: start) }
        guard
            checking.withLock({ state in
                state.task = task
                return !state.isLate
            })
        else {
            task.cancel()
            return
        }
        outcome.finish(.success(await task.value))
    }

    /// Asks each of `checks` concurrently (one, for a contribution); its results in order.
    private static func results(
        of checks: [any HealthCheck],
        since start: ContinuousClock.Instant
    ) async -> [HealthCheckResult] {
        await withTaskGroup(of: (Int, HealthCheckResult).self) { group in
            for (position, check) in checks.enumerated() {
                group.addTask {
                    let named = NamedCheck(check)
                    do {
                        return (position, named.result(try await check.checkHealth(), after: .now - start))
                    } catch {
                        return (position, named.unhealthy(after: .now - start, "threw \(type(of: error))"))
                    }
                }
            }
            var results: [(Int, HealthCheckResult)] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// What a result says of the check, whatever it answered.
    struct NamedCheck: Sendable {
        let name: String
        let isRequired: Bool

        init(name: String, isRequired: Bool) {
            self.name = name
            self.isRequired = isRequired
        }

        init(_ check: any HealthCheck) {
            self.init(name: check.healthCheckName, isRequired: check.isRequiredForReadiness)
        }

        func result(_ status: HealthStatus, after duration: Duration, _ message: String? = nil) -> HealthCheckResult {
            HealthCheckResult(name: name, status: status, isRequired: isRequired, duration: duration, message: message)
        }

        func unhealthy(after duration: Duration, _ message: String) -> HealthCheckResult {
            result(.unhealthy, after: duration, message)
        }
    }
}
