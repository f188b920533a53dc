/// How healthy a check, or a whole service, is: ordered from ``healthy`` to ``unhealthy``, so the
/// worst of several is their `max()`.
///
/// ```swift
/// let overall = [HealthStatus.healthy, .degraded].max()   // .degraded
/// ```
public enum HealthStatus: String, Sendable, Hashable, Comparable, Encodable, CustomStringConvertible {
    /// Everything works.
    case healthy
    /// It works, but poorly, or an optional dependency does not.
    case degraded
    /// It does not work.
    case unhealthy

    private var severity: Int {
        switch self {
        case .healthy: 0
        case .degraded: 1
        case .unhealthy: 2
        }
    }

    /// Whether `lhs` is healthier than `rhs`.
    ///
    /// ```swift
    /// HealthStatus.healthy < .unhealthy   // true
    /// ```
    public static func < (lhs: HealthStatus, rhs: HealthStatus) -> Bool { lhs.severity < rhs.severity }

    /// `healthy`, `degraded` or `unhealthy`.
    public var description: String { rawValue }
}
