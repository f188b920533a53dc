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
    static func parameter<T>(_ type: T.Type) -> BindingKey {
        if let named = type as? any NamedDependency.Type { return named.key }
        return BindingKey(type)
    }

    /// The keys a function's autowired parameters resolve, in order (``parameter(_:)`` each).
    @usableFromInline static func parameters<each Dependency>(_ types: repeat (each Dependency).Type) -> [BindingKey] {
        var keys: [BindingKey] = []
        repeat keys.append(parameter(each types))
        return keys
    }
}

extension NamedDependency {
    /// `value` wrapped, when it is a `Value`.
    static func wrapping(_ value: any Sendable) -> (any Sendable)? {
        (value as? Value).map { Self($0) }
    }
}

/// The one named resolution, shared by both drivers: a ``Named`` parameter asks for the binding of
/// its key as the wrapper type; the binding's own value, resolved untyped
/// (``AnyRecipe/resolve(in:binding:below:)`` or ``AnyRecipe/stepInPlace(_:_:)``), is wrapped here.
extension Binding {
    /// Whether `T` is a ``Named`` wrapper of this binding's key.
    func isNamed<T>(_ type: T.Type) -> Bool {
        (type as? any NamedDependency.Type)?.key == key
    }

    /// `value`, this binding's, wrapped as `T`; `nil` when `T` is no wrapper of it.
    func named<T>(_ value: any Sendable, as type: T.Type) -> T? {
        (type as? any NamedDependency.Type)?.wrapping(value) as? T
    }
}
