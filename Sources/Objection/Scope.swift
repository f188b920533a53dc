/// How long a bound instance lives, and which injector caches it.
///
/// - ``transient``: no cache; every `get` runs the provider again (Objection's "normal" scope).
///   This is the default.
/// - ``singleton``: one instance per injector that declares the binding, built on first use (or
///   when the injector is created, with `asEagerSingleton()`), shared by every caller and by the
///   injector's children. Its dependencies are resolved in the declaring injector, so it can never
///   capture a child's or a request's values.
/// - ``scoped``: one instance per request scope (see ``InjectorActor/withScope(modules:_:)``),
///   disposed when the scope ends. Resolving it outside a scope, or from a singleton, throws
///   ``InjectionError/Code/scopeViolation``.
///
/// ```swift
/// binder.bind(Engine.self).to { _ in Engine() }.inScope(.singleton)
/// ```
///
/// `Scope` is a struct rather than an enum so that new lifetimes can be added without breaking
/// code that switches over them.
public struct Scope: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline
    enum Kind: Hashable, Sendable {
        case transient
        case singleton
        case scoped
    }

    @usableFromInline let kind: Kind

    /// A new instance on every resolution.
    public static let transient = Scope(kind: .transient)
    /// One instance per injector, built at most once even under concurrent first use.
    public static let singleton = Scope(kind: .singleton)
    /// One instance per request scope, built on first use inside it and disposed when it ends.
    public static let scoped = Scope(kind: .scoped)

    /// Whether instances in this scope are cached by an injector.
    @inlinable
    var isCached: Bool { kind != .transient }

    /// `transient`, `singleton` or `scoped`.
    public var description: String {
        switch kind {
        case .transient: "transient"
        case .singleton: "singleton"
        case .scoped: "scoped"
        }
    }
}
