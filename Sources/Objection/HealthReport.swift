/// What ``InjectorActor/health(within:cachedFor:)`` and ``InjectorActor/liveness()`` answer: an overall status, whether the service is ready, the
/// injector's phase, and each check's result. It names checks and error types only, never a value,
/// so it is safe to serve to a load balancer.
///
/// ```swift
/// let report = await injector.health(within: .seconds(2))
/// response.status = report.isReady ? .ok : .serviceUnavailable
/// ```
///
/// Encoded (with `JSONEncoder`) as
/// `{"status":"healthy","ready":true,"phase":"running","checks":[{"name":"database","status":"healthy","durationMilliseconds":1.5}]}`.
public struct HealthReport: Sendable, Encodable {
    /// The worst status among the checks, an optional check's unhealthy counting as degraded;
    /// ``HealthStatus/unhealthy`` when the injector is not running.
    public let status: HealthStatus
    /// Whether the service should get traffic: the injector is running (started, not shutting
    /// down) and no required check is unhealthy. In a liveness report, which runs no check:
    /// whether the injector is running.
    public let isReady: Bool
    /// Where the injector was when the report was made.
    public let phase: InjectorPhase
    /// Each check's result, in the order the checks were contributed; empty when none ran.
    public let checks: [HealthCheckResult]

    /// Creates a report; the injector makes these, but tests and adapters may need to.
    ///
    /// ```swift
    /// let report = HealthReport(status: .healthy, isReady: true, phase: .running, checks: [])
    /// ```
    ///
    /// - Parameters:
    ///   - status: The overall status.
    ///   - isReady: Whether the service should get traffic.
    ///   - phase: The injector's phase.
    ///   - checks: Each check's result.
    public init(status: HealthStatus, isReady: Bool, phase: InjectorPhase, checks: [HealthCheckResult]) {
        self.status = status
        self.isReady = isReady
        self.phase = phase
        self.checks = checks
    }

    private enum CodingKeys: String, CodingKey {
        case status, isReady = "ready", phase, checks
    }
}

/// One check's answer in a ``HealthReport``.
///
/// ```swift
/// for check in report.checks where check.status != .healthy {
///     logger.warning("\(check.name): \(check.status) \(check.message ?? "")")
/// }
/// ```
public struct HealthCheckResult: Sendable, Encodable {
    /// The check's ``HealthCheck/healthCheckName``.
    public let name: String
    /// What it answered; ``HealthStatus/unhealthy`` when it threw or passed its deadline.
    public let status: HealthStatus
    /// Whether an unhealthy answer makes the service not ready.
    public let isRequired: Bool
    /// How long it took, up to its deadline.
    public let duration: Duration
    /// Why it is not healthy, when it threw (`threw ConnectionRefused`) or passed its deadline
    /// (`no answer within 2.0 seconds`); never an error's description or a value.
    public let message: String?

    /// Creates a result; the injector makes these, but tests and adapters may need to.
    ///
    /// ```swift
    /// let result = HealthCheckResult(name: "database", status: .healthy, isRequired: true, duration: .zero)
    /// ```
    ///
    /// - Parameters:
    ///   - name: The check's name.
    ///   - status: What it answered.
    ///   - isRequired: Whether an unhealthy answer makes the service not ready.
    ///   - duration: How long it took.
    ///   - message: Why it is not healthy, naming types only.
    public init(name: String, status: HealthStatus, isRequired: Bool, duration: Duration, message: String? = nil) {
        self.name = name
        self.status = status
        self.isRequired = isRequired
        self.duration = duration
        self.message = message
    }

    private enum CodingKeys: String, CodingKey {
        case name, status, isRequired = "required", durationMilliseconds, message
    }

    /// Encodes the duration as milliseconds, a number any JSON reader understands.
    ///
    /// ```swift
    /// let json = try JSONEncoder().encode(result)
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(status, forKey: .status)
        try container.encode(isRequired, forKey: .isRequired)
        let (seconds, attoseconds) = duration.components
        try container.encode(Double(seconds) * 1_000 + Double(attoseconds) / 1e15, forKey: .durationMilliseconds)
        try container.encodeIfPresent(message, forKey: .message)
    }
}
