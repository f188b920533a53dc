/// When an injector builds its singletons (Guice's stages).
///
/// In ``development``, the default, a singleton is built on its first `get`, and only eager
/// singletons (``ScopedBindingBuilder/asEagerSingleton()``) are built while the injector is
/// created: start-up stays fast. In ``production``, every singleton the injector declares is
/// built while it is created, so a server that starts has proved that each one can be built,
/// and the first requests pay no construction cost.
///
/// ```swift
/// let injector = try await InjectorActor(modules: [AppModule()], stage: .production)
/// ```
///
/// The graph is checked when an injector is created in either stage. Request scopes build their
/// scoped instances on demand in both.
public struct Stage: Hashable, Sendable, CustomStringConvertible {
    private let name: String

    /// Singletons are built on first use; eager singletons at creation.
    public static let development = Stage(name: "development")
    /// Every singleton is built at creation; a failure makes the creation throw.
    public static let production = Stage(name: "production")

    /// `development` or `production`.
    public var description: String { name }
}
