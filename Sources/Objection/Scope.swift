/// How long a bound instance lives, and which injector caches it.
///
/// - ``transient``: no cache; every `get` runs the provider again (Objection's "normal" scope).
///   This is the default.
/// - ``singleton``: one instance per injector that declares the binding, built on first use (or
///   when the injector is created, with `asEagerSingleton()`), shared by every caller.
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
    }

    @usableFromInline let kind: Kind

    /// A new instance on every resolution.
    public static let transient = Scope(kind: .transient)
    /// One instance per injector, built at most once even under concurrent first use.
    public static let singleton = Scope(kind: .singleton)

    /// Whether instances in this scope are cached by an injector.
    @inlinable
    var isCached: Bool { kind != .transient }

    /// `transient` or `singleton`.
    public var description: String {
        switch kind {
        case .transient: "transient"
        case .singleton: "singleton"
        }
    }
}
