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
    private struct Entry: Sendable {
        let key: BindingKey
        /// The value, of the key's type, as ``CellValue`` wraps it: read back without a cast.
        var value: any AnyObject & Sendable
    }

    /// The values, one per key, in the order their keys were first bound.
    private var entries: [Entry] = []
    /// Where each key's entry is, once there are more than ``searchedInOrder`` of them: a
    /// request's handful is searched in order, which beats hashing, but 100,000 values are not.
    private var positions: [BindingKey: Int]?

    /// How many entries are searched in order before they are indexed by key.
    private static var searchedInOrder: Int { 16 }

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
    ///
    /// Inlinable so that wrapping `value` is specialised for `T` where you call it: an
    /// integration binding a `Logger` per request paid for the unspecialised wrap (see
    /// Benchmarks/README, "Inlining marks").
    @inlinable
    public mutating func bind<T: Sendable>(_ type: T.Type, named name: String? = nil, to value: T) {
        set(CellValue.wrap(value), for: BindingKey(type, named: name))
    }

    /// Binds `key` to `value`, wrapped as ``CellValue`` wraps a value of the key's type.
    @usableFromInline mutating func set(_ value: any AnyObject & Sendable, for key: BindingKey) {
        if let index = index(of: key) {
            entries[index].value = value
            return
        }
        // A request binds a handful: one allocation for them, not one per doubling. Eight:
        // the gRPC interceptor binds three of its own beside the application's.
        if entries.isEmpty { entries.reserveCapacity(8) }
        entries.append(Entry(key: key, value: value))
        if positions != nil {
            positions?[key] = entries.count - 1
        } else if entries.count > Self.searchedInOrder {
            positions = Dictionary(uniqueKeysWithValues: entries.indices.map { (entries[$0].key, $0) })
        }
    }

    /// These values over `outer`'s: what a scope nested in a scope with values `outer` answers.
    func inheriting(_ outer: ScopeValues) -> ScopeValues {
        var merged = outer
        for entry in entries { merged.set(entry.value, for: entry.key) }
        return merged
    }

    /// The keys bound that satisfy `isIncluded`, in order; allocates nothing when none does.
    func keys(where isIncluded: (BindingKey) -> Bool) -> [BindingKey] {
        var keys: [BindingKey] = []
        for index in entries.indices where isIncluded(entries[index].key) { keys.append(entries[index].key) }
        return keys
    }

    /// Where the value bound to `key` is, if any. A request binds a handful of values, so a
    /// linear search beats hashing; it reads the entries in place rather than copying each.
    /// Past ``searchedInOrder`` entries, the index answers.
    func index(of key: BindingKey) -> Int? {
        if let positions { return positions[key] }
        for index in entries.indices where entries[index].key == key { return index }
        return nil
    }

    /// The value at `index`, when its key's type is `T`. Neither casts nor returns a `T?`: code
    /// not specialised for `T` (an autowired parameter pack's) would ask the runtime for
    /// `Optional<T>` on every read.
    func value<T: Sendable>(at index: Int, as type: T.Type) throws(SynchronousStop) -> T {
        guard ObjectIdentifier(entries[index].key.type) == ObjectIdentifier(T.self) else { throw .mustSuspend }
        return CellValue.unwrap(entries[index].value, as: T.self)
    }
}
