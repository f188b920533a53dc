/// Where a probe gets health checks from: one contribution to `[any HealthCheck]`, or a
/// collection bound as a whole. Resolving it is part of the probe: a check whose construction
/// hangs is cut at the deadline like one whose `checkHealth()` hangs, and reported by ``name``.
struct HealthCheckSource: Sendable {
    /// The name its report carries while it has no check to ask: the converted binding's type for
    /// `contributing(to:)`, else `health checks`.
    let name: String
    /// The checks, when they need no resolving: an instance, a singleton already built. Their
    /// names are then known from the start, however late the probe's tasks run.
    var ready: [any HealthCheck]? = nil
    /// Resolves the checks; a contribution resolves one.
    let checks: @Sendable () async throws -> [any HealthCheck]
}
