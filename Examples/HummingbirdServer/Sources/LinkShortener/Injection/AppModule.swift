import Objection

/// The process's bindings: configuration, singletons, and the request-scoped services.
///
/// ```swift
/// let injector = try await InjectorActor(modules: [AppModule(config: AppConfig(), lifecycle: LifecycleLog())])
/// ```
///
/// Request values (``RequestIdentifier``, ``AuthenticatedUser``) are only declared here, with
/// `suppliedByScope()`: each request scope binds them as its values (``RequestScopeMiddleware``). The declaration
/// lets the services that need them be autowired and checked when the injector is built, and
/// makes sure no singleton can capture them.
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

        // Bound by each request scope's values, never by the root.
        binder.bind(RequestIdentifier.self).suppliedByScope()
        binder.bind(AuthenticatedUser.self).suppliedByScope()

        // One audit trail per request scope, disposed (flushed) when the request ends.
        binder.bind(RequestAudit.self).to(RequestAudit.init).inScope(.scoped)

        // The handlers' service: new for each `get`, sharing its scope's audit trail.
        binder.bind(LinkService.self).to(LinkService.init)
    }
}
