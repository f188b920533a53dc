import Objection

/// A health check named `vault` that passes, or fails with an error whose description must never
/// reach a response.
///
/// ```swift
/// let injector = try await InjectorActor(modules: [VaultHealthCheck.Module(fails: true)])
/// // GET /health/ready answers 503, naming `vault`, without `VaultHealthCheck.secret`.
/// ```
public struct VaultHealthCheck: HealthCheck {
    /// The token in the failure's description.
    public static let secret = "s3cr3t"

    /// The check's failure.
    public struct Sealed: Error, CustomStringConvertible {
        /// `token=` and ``VaultHealthCheck/secret``.
        public var description: String { "token=\(VaultHealthCheck.secret)" }
    }

    /// A module that contributes the check to the injector's health checks.
    public struct Module: Objection.Module {
        let fails: Bool

        /// A module whose check fails when `fails` is `true`.
        public init(fails: Bool) { self.fails = fails }

        /// Contributes one ``VaultHealthCheck``.
        public func configure(_ binder: Binder) {
            binder.contribute((any HealthCheck).self).toInstance(VaultHealthCheck(fails: fails))
        }
    }

    let fails: Bool

    /// `vault`.
    public var healthCheckName: String { "vault" }

    /// Healthy, or throws ``Sealed``.
    public func checkHealth() async throws -> HealthStatus {
        if fails { throw Sealed() }
        return .healthy
    }
}
