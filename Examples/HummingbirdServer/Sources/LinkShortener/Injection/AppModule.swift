import Objection

/// The process's bindings: configuration, singletons, and the request-scoped services.
///
/// ```swift
/// let injector = try await InjectorActor(modules: [AppModule(config: AppConfig(), lifecycle: LifecycleLog())])
/// ```
///
/// Request values (``RequestIdentifier``, ``AuthenticatedUser``) are not bound here: only a request
/// scope has them, through ``RequestModule``. The services that need them are bound with provider
/// closures, which resolve them when a request asks, so nothing in the root is wired to a key the
/// root does not have.
public struct AppModule: Module {
    /// The service's settings.
    public var config: AppConfig
    /// Where the singletons record their construction and disposal.
    public var lifecycle: LifecycleLog

    /// Creates the module.
    ///
    /// - Parameters:
    ///   - config: The service's settings.
    ///   - lifecycle: Where the singletons record their construction and disposal.
    public init(config: AppConfig, lifecycle: LifecycleLog) {
        self.config = config
        self.lifecycle = lifecycle
    }

    public func configure(_ binder: Binder) {
        // Values the caller owns: never disposed by the injector.
        binder.bind(AppConfig.self).toInstance(config)
        binder.bind(LifecycleLog.self).toInstance(lifecycle)

        // Singletons, autowired from their initializers. Metrics is eager: built (and checked)
        // when the injector is created.
        binder.bind(Metrics.self).to(Metrics.init).asEagerSingleton()
        binder.bind(CodeGenerator.self).to(CodeGenerator.init).asSingleton()
        binder.bind(AuditLog.self).to(AuditLog.init).asSingleton()
        binder.bind(InMemoryLinkStore.self).to(InMemoryLinkStore.init).asSingleton()
            .onDispose { store in await store.close() }
        binder.bind((any LinkStore).self).to(InMemoryLinkStore.self)

        // One audit trail per request scope, disposed (flushed) when the request ends.
        binder.bind(RequestAudit.self)
            .to { r in
                try await RequestAudit(
                    requestID: r.get(RequestIdentifier.self),
                    user: r.get(AuthenticatedUser.self),
                    sink: r.get(AuditLog.self),
                    metrics: r.get(Metrics.self)
                )
            }
            .inScope(.scoped)

        // The handlers' service: new for each `get`, sharing its scope's audit trail.
        binder.bind(LinkService.self)
            .to { r in
                try await LinkService(
                    requestID: r.get(RequestIdentifier.self),
                    user: r.get(AuthenticatedUser.self),
                    store: r.get((any LinkStore).self),
                    codes: r.get(CodeGenerator.self),
                    audit: r.get(RequestAudit.self),
                    metrics: r.get(Metrics.self)
                )
            }
    }
}
