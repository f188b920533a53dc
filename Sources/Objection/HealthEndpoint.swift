/// The two probes a server answers for its orchestrator, at `/health/live` and `/health/ready`:
/// what ObjectionHummingbird's and ObjectionVapor's health middleware serve, and the way to serve
/// them with any other framework.
///
/// ```swift
/// if let endpoint = HealthEndpoint(path: request.path) {
///     let (report, passes) = await injector.report(for: endpoint, checkTimeout: .seconds(2))
///     return Response(status: passes ? 200 : 503, json: report)
/// }
/// ```
public enum HealthEndpoint: String, Sendable, CaseIterable {
    /// Liveness, at `/health/live`: ``InjectorActor/liveness()``; passes unless the injector has
    /// shut down.
    case live
    /// Readiness, at `/health/ready`: ``InjectorActor/health(within:cachedFor:)``; passes when
    /// the report is ready.
    case ready

    /// `/health/live` or `/health/ready`.
    ///
    /// ```swift
    /// router.get(HealthEndpoint.ready.path) { ... }
    /// ```
    public var path: String { "/health/\(rawValue)" }

    /// The endpoint served at `path`, if any.
    ///
    /// ```swift
    /// HealthEndpoint(path: "/health/ready")   // .ready
    /// ```
    ///
    /// - Parameter path: A request's path, without its query.
    public init?(path: String) {
        guard let endpoint = Self.allCases.first(where: { $0.path == path }) else { return nil }
        self = endpoint
    }
}

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
