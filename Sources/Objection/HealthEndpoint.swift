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
