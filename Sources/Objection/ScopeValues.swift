/// The values one request scope supplies: its id, the authenticated user, a transaction — bound
/// without a ``Module``, so opening the scope builds no binding table.
///
/// ```swift
/// try await injector.withScope(values: { request in
///     request.bind(RequestID.self, to: id)
///     request.bind(User.self, named: "caller", to: user)
/// }) { scope in
///     try await scope.get(CheckoutHandler.self).handle()
/// }
/// ```
///
/// A value answers its key in the scope, and in scopes nested inside it: for
/// ``InjectorActor/get(_:named:)`` and for every
/// binding the scope resolves. Its key must be declared with
/// ``BindingBuilder/suppliedByScope()`` — which lets the injector check, when it is created, the
/// bindings that depend on it — or be unbound. A key the injector binds some other way cannot be
/// replaced by a value (``InjectorActor/withScope(values:_:)`` throws
/// ``InjectionError/Code/invalidConfiguration``); use ``InjectorActor/withScope(modules:_:)`` to
/// override bindings per request. Values belong to the caller: the scope never disposes them.
public struct ScopeValues: Sendable {
    /// The values, in the order they were bound; a later value for the same key wins.
    private var entries: [(key: BindingKey, value: any Sendable)] = []

    /// Creates an empty set of values.
    ///
    /// ```swift
    /// var values = ScopeValues()
    /// values.bind(RequestID.self, to: id)
    /// ```
    public init() {}

    /// Binds `value` to `type`, optionally qualified by `name`.
    ///
    /// ```swift
    /// values.bind(RequestID.self, to: id)
    /// values.bind(String.self, named: "tenant", to: tenant)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The key's type; a protocol's existential (`(any Clock).self`) works too.
    ///   - name: The key's name, or `nil` for the unnamed key.
    ///   - value: The value the scope answers with.
    public mutating func bind<T: Sendable>(_ type: T.Type, named name: String? = nil, to value: T) {
        let key = BindingKey(type, named: name)
        entries.removeAll { $0.key == key }
        entries.append((key, value))
    }

    /// The keys bound, in order.
    var keys: [BindingKey] { entries.map(\.key) }

    /// The value bound to `key`, if any. A request binds a handful of values, so a linear search
    /// beats hashing.
    func value<T>(for key: BindingKey, as type: T.Type) -> T? {
        for entry in entries where entry.key == key { return entry.value as? T }
        return nil
    }
}
