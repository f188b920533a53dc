/// Health, readiness and liveness: what a load balancer or an orchestrator asks.
extension InjectorActor {
    /// Where this injector is in its life: ``InjectorPhase/starting`` until a deferred start
    /// succeeded, ``InjectorPhase/shuttingDown`` from the first moment of ``shutdown(within:)``
    /// (while it drains), ``InjectorPhase/shutDown`` once `get` refuses.
    ///
    /// ```swift
    /// if injector.phase != .running { return .serviceUnavailable }
    /// ```
    public nonisolated var phase: InjectorPhase {
        if isShutDown { return .shutDown }
        // A scope or a child is shutting down when the injector it counts in does.
        var tracker: InjectorActor? = scopeTracker
        while let current = tracker {
            if current.openScopes.isDraining { return .shuttingDown }
            tracker = current.parentTracker
        }
        return isStartupPending || scopeTracker.isStartupPending ? .starting : .running
    }

    /// Runs the health checks contributed to `[any HealthCheck]` and reports on them and on the
    /// injector's own state: the readiness probe of a server.
    ///
    /// While the injector is running, the checks run concurrently, each on a task of its own and
    /// cut at `timeout` (reported ``HealthStatus/unhealthy``, "no answer within …", and
    /// cancelled). The deadline covers building a check too: each contribution to
    /// `[any HealthCheck]` is resolved on its check's task, so a check whose construction hangs is
    /// reported unhealthy at the deadline under its binding's type (the name a `contributing(to:)`
    /// singleton's check has by default), and the others are reported as usual. A probe storm
    /// never runs a check more than once at a time: concurrent callers share one run, its results
    /// are reused for `cachedFor`, and a check that passed its deadline and still has not
    /// returned is not started again until it does (reported as still running). The report is ready when the injector is running and no required check is
    /// unhealthy; its status is the worst check's, an optional check's unhealthy counting as
    /// degraded.
    ///
    /// While it is starting (a deferred start that has not succeeded), shutting down or shut
    /// down, no check runs — they could build singletons whose services do not run — and the
    /// report is not ready, its status ``HealthStatus/unhealthy``. A check that cannot be built is
    /// reported unhealthy with the error's type.
    ///
    /// ```swift
    /// let report = await injector.health(within: .seconds(2))
    /// return report.isReady ? .ok : .serviceUnavailable
    /// ```
    ///
    /// - Parameters:
    ///   - timeout: How long each check may take; a negative one counts as zero.
    ///   - cachedFor: How long a run's results answer later calls; one second unless you say.
    /// - Returns: The report; a caller cancelled while it waits gets one with no checks, not ready.
    public nonisolated func health(
        within timeout: Duration,
        cachedFor: Duration = .seconds(1)
    ) async -> HealthReport {
        // A request scope answers for the injector it was opened on: one single flight and cache
        // for every request.
        if isScope { return await scopeTracker.health(within: timeout, cachedFor: cachedFor) }
        let phase = phase
        guard phase == .running else {
            return HealthReport(status: .unhealthy, isReady: false, phase: phase, checks: [])
        }
        let results = await healthMonitor.results(maxAge: cachedFor) { [self] in
            do {
                return await HealthCheckRun.run(
                    try healthCheckSources(), within: max(timeout, .zero), monitor: healthMonitor)
            } catch {
                let message = "finding the checks threw \(type(of: error))"
                return [
                    HealthCheckResult(
                        name: Self.unnamedSource, status: .unhealthy, isRequired: true, duration: .zero,
                        message: message)
                ]
            }
        }
        guard let results else { return HealthReport(status: .unhealthy, isReady: false, phase: phase, checks: []) }
        // Read again: shutdown may have begun while the checks ran.
        let now = self.phase
        let checks = results + refreshHealth
        let status = checks.map { $0.isRequired || $0.status != .unhealthy ? $0.status : .degraded }.max() ?? .healthy
        let failing = checks.contains { $0.isRequired && $0.status == .unhealthy }
        return HealthReport(
            status: now == .running ? status : .unhealthy,
            isReady: now == .running && !failing,
            phase: now,
            checks: checks
        )
    }

    /// Whether the process should be left running: the liveness probe of a server. It runs no
    /// check — a database that does not answer is a reason to stop sending traffic
    /// (``health(within:cachedFor:)``), not to restart the process — and reads the injector's
    /// phase only: ``HealthStatus/healthy`` unless the injector has shut down. `isReady` says
    /// whether the phase is ``InjectorPhase/running``.
    ///
    /// ```swift
    /// let report = injector.liveness()
    /// return report.status == .healthy ? .ok : .serviceUnavailable
    /// ```
    public nonisolated func liveness() -> HealthReport {
        let phase = phase
        return HealthReport(
            status: phase == .shutDown ? .unhealthy : .healthy,
            isReady: phase == .running,
            phase: phase,
            checks: []
        )
    }
}
