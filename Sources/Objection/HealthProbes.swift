/// A server's health probes: the injector they report on, how long each check may take, and how
/// long a run's results answer later probes. Every server integration's health middleware keeps
/// one and answers with it, so that the probes behave alike whatever the framework.
///
/// ```swift
/// let probes = HealthProbes(injector, checkTimeout: .seconds(2))
/// if let (report, passes) = await probes.answer(toGETOf: "/health/ready") {
///     // 200 when `passes`, else 503, with `report` as the body
/// }
/// ```
public struct HealthProbes: Sendable {
    /// The injector whose checks and phase the probes report.
    public let injector: InjectorActor
    /// How long each check may take before it is reported unhealthy.
    public let checkTimeout: Duration
    /// How long a run's results answer later probes: a probe storm runs each check once per period.
    public let cachedFor: Duration

    /// The probes of `injector`.
    ///
    /// ```swift
    /// let probes = HealthProbes(injector, checkTimeout: .seconds(2), cachedFor: .seconds(5))
    /// ```
    ///
    /// - Parameters:
    ///   - injector: The application's injector.
    ///   - checkTimeout: How long each check may take.
    ///   - cachedFor: How long a run's results answer later probes.
    public init(_ injector: InjectorActor, checkTimeout: Duration = .seconds(2), cachedFor: Duration = .seconds(1)) {
        self.injector = injector
        self.checkTimeout = checkTimeout
        self.cachedFor = cachedFor
    }

    /// The answer to a `GET` of `path`: the report and whether it passes (a server answers 200 or
    /// 503), or `nil` when `path` is no probe's (see ``HealthEndpoint``).
    ///
    /// ```swift
    /// guard let (report, passes) = await probes.answer(toGETOf: request.path) else { return try await next(request) }
    /// ```
    ///
    /// - Parameter path: The request's path, without its query.
    /// - Returns: The report and whether it passes, or `nil`.
    public func answer(toGETOf path: String) async -> (report: HealthReport, passes: Bool)? {
        guard let endpoint = HealthEndpoint(path: path) else { return nil }
        return await injector.report(for: endpoint, checkTimeout: checkTimeout, cachedFor: cachedFor)
    }
}
