import NIOConcurrencyHelpers
import Objection

/// The root's singletons, for the routes that do without the injector per request: `/plain/...`
/// (the hand-wired baseline of the load test) and `/stats`.
struct Singletons: Sendable {
    let database: LinkDatabase
    let codes: CodeGenerator
    let metrics: Metrics
    let auditLog: AuditLog
    let lifecycle: LifecycleLog

    init(from injector: InjectorActor) async throws {
        self.database = try await injector.get(LinkDatabase.self)
        self.codes = try await injector.get(CodeGenerator.self)
        self.metrics = try await injector.get(Metrics.self)
        self.auditLog = try await injector.get(AuditLog.self)
        self.lifecycle = try await injector.get(LifecycleLog.self)
    }
}

/// ``Singletons``, resolved on the first request that needs them and kept.
///
/// Not when the router is built: that is before the service group runs, and ``LinkDatabase`` is
/// built only once the injector's service runs the database client. A request that arrives while
/// the injector is still starting waits for it, as on the `/links` routes.
final class LazySingletons: Sendable {
    private let injector: InjectorActor
    private let resolved = NIOLockedValueBox<Singletons?>(nil)

    init(injector: InjectorActor) {
        self.injector = injector
    }

    /// The singletons; the first calls resolve them (concurrent first calls may each resolve the
    /// same instances).
    func get() async throws -> Singletons {
        if let singletons = resolved.withLockedValue({ $0 }) { return singletons }
        let singletons = try await Singletons(from: injector)
        resolved.withLockedValue { $0 = singletons }
        return singletons
    }
}
