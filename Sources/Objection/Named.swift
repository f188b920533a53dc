/// A name for a binding, as a type, so that an autowired initializer can ask for a named binding
/// by its parameter type (Blindside's keyed initializers, Objection's named requirements).
///
/// ```swift
/// enum Left: BindingName { static let name = "left" }
/// enum Right: BindingName { static let name = "right" }
///
/// final class Car: Sendable {
///     init(left: Named<Headlight, Left>, right: Named<Headlight, Right>) { … }
/// }
///
/// binder.bind(Headlight.self, named: Left.name).to { _ in Headlight(side: .left) }
/// binder.bind(Headlight.self, named: Right.name).to { _ in Headlight(side: .right) }
/// binder.bind(Car.self).to(Car.init)   // each light found by its name
/// ```
public protocol BindingName: Sendable {
    /// The name given to ``Binder/bind(_:named:fileID:line:)``.
    static var name: String { get }
}

/// A parameter of an autowired initializer that resolves the binding of `Value` named
/// `Name.name`.
///
/// The name is part of the parameter's type, so the creation check and the synchronous fast path
/// see the named dependency like any other: a missing named binding is reported when the injector
/// is created, with its path.
///
/// ```swift
/// final class Car: Sendable {
///     let left: Headlight
///     init(left: Named<Headlight, Left>) { self.left = left.value }
/// }
/// ```
public struct Named<Value: Sendable, Name: BindingName>: Sendable {
    /// The resolved value.
    public let value: Value

    /// Wraps `value`, as the injector does for an autowired parameter.
    ///
    /// - Parameter value: The value of the named binding.
    public init(_ value: Value) {
        self.value = value
    }
}

/// The untyped face of ``Named``: the key it resolves and how to wrap that key's value.
protocol NamedDependency: Sendable {
    associatedtype Value: Sendable
    static var key: BindingKey { get }
    init(_ value: Value)
}

extension Named: NamedDependency {
    static var key: BindingKey { BindingKey(Value.self, named: Name.name) }
}

extension BindingKey {
    /// The key an autowired parameter of type `T` resolves: the named binding for a ``Named``
    /// parameter, otherwise `T`'s unnamed binding.
    @usableFromInline
    static func parameter<T>(_ type: T.Type) -> BindingKey {
        if let named = type as? any NamedDependency.Type { return named.key }
        return BindingKey(type)
    }

    /// The keys a function's autowired parameters resolve, in order (``parameter(_:)`` each).
    @usableFromInline
    static func parameters<each Dependency>(_ types: repeat (each Dependency).Type) -> [BindingKey] {
        var keys: [BindingKey] = []
        repeat keys.append(parameter(each types))
        return keys
    }
}

extension InjectorActor {
    /// `binding`'s value wrapped as `T`, when `T` is a ``Named`` over the binding's type: the
    /// value of a named autowired parameter. `nil` when `T` is no such wrapper.
    @usableFromInline
    nonisolated func resolveNamed<T: Sendable>(
        _ binding: Binding,
        as type: T.Type,
        below parent: ResolutionFrame?
    ) async throws -> T? {
        guard let named = type as? any NamedDependency.Type else { return nil }
        return try await wrap(binding, in: named, below: parent) as? T
    }

    private nonisolated func wrap<N: NamedDependency>(
        _ binding: Binding,
        in type: N.Type,
        below parent: ResolutionFrame?
    ) async throws -> N {
        N(try await resolve(binding, as: N.Value.self, below: parent))
    }
}

extension SynchronousResolver {
    /// The synchronous form of ``InjectorActor/resolveNamed(_:as:below:)``; a `T` that is not a
    /// ``Named`` leaves the synchronous path. Non-optional, so that code not specialised for `T`
    /// needs no metadata for `T?` on its way past.
    func resolveNamed<T: Sendable>(_ binding: Binding, as type: T.Type) throws(SynchronousStop) -> T {
        guard let named = type as? any NamedDependency.Type, let value = try wrap(binding, in: named) as? T else {
            throw .mustSuspend
        }
        return value
    }

    private func wrap<N: NamedDependency>(_ binding: Binding, in type: N.Type) throws(SynchronousStop) -> N {
        N(try resolve(binding, as: N.Value.self))
    }
}
