/// The answers to a server's health probes (`HealthEndpoint`).
extension InjectorActor {
    /// Answers the probe `endpoint`: its report, and whether it passes (a server answers 200 or
    /// 503). Liveness runs no check; readiness runs them (see ``health(within:cachedFor:)``).
    ///
    /// ```swift
    /// let (report, passes) = await injector.report(for: .ready, checkTimeout: .seconds(2))
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: The probe.
    ///   - checkTimeout: How long each check may take.
    ///   - cachedFor: How long a run's results answer later probes.
    /// - Returns: The report, and whether it passes.
    public nonisolated func report(
        for endpoint: HealthEndpoint,
        checkTimeout: Duration,
        cachedFor: Duration = .seconds(1)
    ) async -> (report: HealthReport, passes: Bool) {
        switch endpoint {
        case .live:
            let report = liveness()
            return (report, report.status != .unhealthy)
        case .ready:
            let report = await health(within: checkTimeout, cachedFor: cachedFor)
            return (report, report.isReady)
        }
    }
}
