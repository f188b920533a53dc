import Objection
import ServiceLifecycle

extension ScopedBindingBuilder where T: Service {
    /// Makes the binding a singleton that ``InjectorService`` runs: its `run()` starts before the
    /// injector builds its eager singletons, and returns, on graceful shutdown, before the
    /// injector disposes them.
    ///
    /// For a client whose requests wait for its `run()`, such as a database client: an eager
    /// singleton that queries it while it is built can be built only once it runs.
    ///
    /// ```swift
    /// struct AppModule: Module {
    ///     func configure(_ binder: Binder) {
    ///         binder.bind(PostgresClient.self)
    ///             .to { r in PostgresClient(configuration: try await r.get(PostgresClient.Configuration.self)) }
    ///             .asService()
    ///         binder.bind(UserRepository.self).to(UserRepository.init).asEagerSingleton()
    ///     }
    /// }
    /// ```
    ///
    /// The instance that runs is the one every `get` returns. The binding becomes a singleton
    /// whatever scope it had, keeping an `asEagerSingleton()` made before. Mark services in the
    /// modules of the injector an ``InjectorService`` serves, usually the root: one made for a
    /// child injector would run its parent's services as well, since a child's collections
    /// include its parent's contributions.
    ///
    /// - Returns: This builder, to add an `onDispose` hook.
    @discardableResult
    public func asService() -> ScopedBindingBuilder<T> {
        asSingleton().contributing(to: (any Service).self, named: ServiceCollection.name) { $0 }
    }
}

/// The collection `[any Service]` that ``ScopedBindingBuilder/asService()`` contributes to and
/// ``InjectorService`` runs.
enum ServiceCollection {
    /// Qualifies the collection, so that it is not the `[any Service]` an application may bind
    /// for itself.
    static let name = "objection.service-lifecycle.services"
}
