import Objection

/// The root's singletons, resolved once at start-up for the routes that do without the injector
/// per request: `/plain/...` (the hand-wired baseline of the load test) and `/stats`.
struct Singletons: Sendable {
    let store: any LinkStore
    let codes: CodeGenerator
    let metrics: Metrics
    let auditLog: AuditLog
    let lifecycle: LifecycleLog

    init(from injector: InjectorActor) async throws {
        self.store = try await injector.get((any LinkStore).self)
        self.codes = try await injector.get(CodeGenerator.self)
        self.metrics = try await injector.get(Metrics.self)
        self.auditLog = try await injector.get(AuditLog.self)
        self.lifecycle = try await injector.get(LifecycleLog.self)
    }
}
