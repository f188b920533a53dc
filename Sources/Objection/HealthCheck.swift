/// Something that can say whether a dependency of the service still works — a database client
/// that answers a query, a queue that accepts a message — contributed by a module so that
/// ``InjectorActor/health(within:cachedFor:)`` runs it.
///
/// Checks are resolved like anything else: contribute them to `[any HealthCheck]`, or let a
/// singleton be its own check. The injector runs them concurrently, each cut at the deadline the
/// caller gives, and never runs one check more than once at a time.
///
/// ```swift
/// extension PostgresClient: HealthCheck {
///     public var healthCheckName: String { "database" }
///     public func checkHealth() async throws -> HealthStatus {
///         try await query("SELECT 1", logger: .init(label: "health")).collect()
///         return .healthy
///     }
/// }
///
/// binder.bind(PostgresClient.self).to(makeClient).asSingleton()
///     .contributing(to: (any HealthCheck).self) { $0 }
/// binder.contribute((any HealthCheck).self).toInstance(DiskSpaceCheck(minimumFreeBytes: 1 << 30))
/// ```
public protocol HealthCheck: Sendable {
    /// The name the reports give the check, such as `database`; by default, its type's name.
    var healthCheckName: String { get }

    /// Whether the service cannot serve while this check is unhealthy: an unhealthy required
    /// check makes the service not ready and the report unhealthy; an optional one (`false`)
    /// makes the report at most degraded. `true` by default.
    var isRequiredForReadiness: Bool { get }

    /// Checks the dependency. Return ``HealthStatus/healthy``, or ``HealthStatus/degraded`` when
    /// it works but poorly; throw, or return ``HealthStatus/unhealthy``, when it does not. A
    /// thrown error is reported by its type's name only, never its description, which may carry
    /// values. Called on a task of its own, cancelled at the deadline.
    func checkHealth() async throws -> HealthStatus
}

extension HealthCheck {
    /// The check's type name.
    ///
    /// ```swift
    /// struct DiskSpaceCheck: HealthCheck { ... }   // reported as "DiskSpaceCheck"
    /// ```
    public var healthCheckName: String { String(describing: type(of: self)) }

    /// `true`: an unhealthy check makes the service not ready.
    ///
    /// ```swift
    /// struct CacheCheck: HealthCheck { var isRequiredForReadiness: Bool { false } ... }
    /// ```
    public var isRequiredForReadiness: Bool { true }
}
