/// A unit of configuration: it tells a ``Binder`` how to build the types it knows about.
///
/// Modules are values; an injector runs each module's ``configure(_:)`` once, when it is created.
/// When two modules bind the same key, the later module in the list wins, which is how test and
/// environment overrides work. Binding the same key twice inside one module is a configuration
/// error.
///
/// ```swift
/// struct AppModule: Module {
///     let dsn: String
///
///     func configure(_ binder: Binder) {
///         binder.bind(Config.self).toInstance(Config(dsn: dsn))
///         binder.bind((any Database).self)
///             .to { r in try await PostgresDatabase(config: r.get(Config.self)) }
///             .asSingleton()
///     }
/// }
/// ```
public protocol Module: Sendable {
    /// Declares this module's bindings.
    ///
    /// - Parameter binder: The binder to declare bindings on. Use it only inside this call.
    func configure(_ binder: Binder)
}
