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
/// - ``weak``: shared while someone holds it; built again once every holder has let go.
/// - ``custom(_:cache:)``: your own caching policy (Objective-IOC's pluggable caching, Blindside's
///   `BSScope`, Swinject's custom object scopes).
///
/// ```swift
/// binder.bind(Engine.self).to { _ in Engine() }.inScope(.singleton)
/// ```
///
/// `Scope` is a struct rather than an enum so that new lifetimes can be added without breaking
/// code that switches over them.
public struct Scope: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case transient
        case singleton
        case scoped
        case custom
        case refreshable
        /// A ``Lazy`` handle's own cell: never declared, made by each handle for itself.
        case handle
    }

    let kind: Kind
    private let name: String
    /// For a custom scope, makes the cache of one binding.
    let makeCache: (@Sendable () -> any ScopeCache)?

    private init(kind: Kind, name: String = "", makeCache: (@Sendable () -> any ScopeCache)? = nil) {
        self.kind = kind
        self.name = name
        self.makeCache = makeCache
    }

    /// A scope with its own caching policy. Each binding in it gets a cache from `makeCache`, in
    /// the injector that declares the binding; a resolution returns what the cache offers, or
    /// builds a new instance and hands it to the cache.
    ///
    /// ```swift
    /// extension Scope {
    ///     static let perMinute = Scope.custom("perMinute") { ExpiringCache(lifetime: .seconds(60)) }
    /// }
    /// binder.bind(RateTable.self).to(RateTable.load).inScope(.perMinute)
    /// ```
    ///
    /// Unlike ``singleton``, a custom scope does not make construction exactly-once: two tasks
    /// that miss the cache at the same moment may both build, and the cache keeps what it is
    /// given last. Its instances are not disposed by the injector.
    ///
    /// - Parameters:
    ///   - name: Identifies the scope: two custom scopes are equal when their names are.
    ///   - makeCache: Makes one binding's cache.
    /// - Returns: The scope.
    public static func custom(_ name: String, cache makeCache: @escaping @Sendable () -> any ScopeCache) -> Scope {
        Scope(kind: .custom, name: name, makeCache: makeCache)
    }

    /// Shared while someone holds it (Swinject's `.weak`): the cache keeps a weak reference, so
    /// the instance is reused as long as any caller still holds it and built again afterwards.
    /// Values that are not class instances are not kept.
    public static let weak = Scope.custom("weak") { WeakReferenceCache() }

    /// Scopes are equal when they are the same kind with the same name; two custom scopes with
    /// one name are equal whatever their caches.
    public static func == (lhs: Scope, rhs: Scope) -> Bool {
        lhs.kind == rhs.kind && lhs.name == rhs.name
    }

    /// Hashes the kind and the name, as ``==(_:_:)`` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(name)
    }

    /// A new instance on every resolution.
    public static let transient = Scope(kind: .transient)
    /// One instance per injector, built at most once even under concurrent first use.
    public static let singleton = Scope(kind: .singleton)
    /// One instance per request scope, built on first use inside it and disposed when it ends.
    public static let scoped = Scope(kind: .scoped)

    /// One instance per injector, like ``singleton``, that ``InjectorActor/refresh(within:)``
    /// replaces while the injector runs: a request scope keeps the instance it first read for its
    /// whole life, and a replaced instance is disposed after the last scope that used it ends.
    /// Same as `asRefreshable()`; the article "Refreshing without a restart" tells the rules.
    ///
    /// ```swift
    /// binder.bind(RateLimiter.self).to { r in RateLimiter(limit: try r.setting("rate.limit")) }.inScope(.refreshable)
    /// ```
    public static let refreshable = Scope(kind: .refreshable)

    /// The lifetime of a ``Lazy`` handle's shared resolution: one value per handle. Internal: no
    /// binding is declared with it.
    static let handle = Scope(kind: .handle, name: "lazy handle")

    /// `transient`, `singleton`, `scoped`, or a custom scope's name.
    public var description: String {
        switch kind {
        case .transient: "transient"
        case .singleton: "singleton"
        case .scoped: "scoped"
        case .custom, .handle: name
        case .refreshable: "refreshable"
        }
    }
}
