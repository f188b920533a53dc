/// A class whose properties the injector sets after building it (Objection's `objection_requires`,
/// Blindside's `bsProperties`, motion-objection's `compose_with`), and which is told when they
/// are all set (`awakeFromObjection`, `bsAwakeFromPropertyInjection`, `awoken`).
///
/// List the class's own property dependencies as key paths, optionally named. The injector also
/// applies every superclass's list, superclasses first, so a subclass only lists what it adds; a
/// superclass that declares none need not conform. In a class meant to be subclassed, declare the
/// list as `class var` so that subclasses can declare theirs, and implement `awakeFromInjection()`
/// in the class itself so that subclasses can override it: a subclass's own implementation is not
/// called otherwise.
///
/// ```swift
/// class Vehicle: PropertyInjectable, @unchecked Sendable {   // properties set once, by the injector
///     var engine: Engine?
///     class var injectedProperties: [InjectedProperty] { [.property(\Vehicle.engine)] }
///     func awakeFromInjection() async throws {}
/// }
///
/// final class Truck: Vehicle, @unchecked Sendable {
///     var leftLight: Headlight?
///     override class var injectedProperties: [InjectedProperty] {
///         [.property(\Truck.leftLight, named: "left")]
///     }
///     override func awakeFromInjection() async throws { /* engine and leftLight are set */ }
/// }
///
/// binder.bind(Truck.self).to(Truck.init)            // properties set after init
/// try await injector.injectDependencies(into: truck)  // or into an object built elsewhere
/// ```
///
/// The class is responsible for its `Sendable`-ness: set-once properties behind
/// `@unchecked Sendable`, a lock, or an actor such as `@MainActor`.
public protocol PropertyInjectable: AnyObject, Sendable {
    /// This class's own property dependencies, in the order they are set.
    static var injectedProperties: [InjectedProperty] { get }

    /// Called once per built (or injected) instance, after every property is set.
    func awakeFromInjection() async throws
}

extension PropertyInjectable {
    /// Does nothing.
    public func awakeFromInjection() async throws {}
}

/// One property dependency of a ``PropertyInjectable`` class.
public struct InjectedProperty: Sendable {
    let path: any AnyKeyPath & Sendable
    let key: BindingKey
    let assign: @Sendable (AnyObject, InjectorActor, ResolutionFrame?) async throws -> Void

    /// A property set to the binding for its type.
    ///
    /// - Parameters:
    ///   - keyPath: The property, such as `\Car.engine`.
    ///   - name: The binding's name, or `nil` for the unnamed binding.
    /// - Returns: The declaration.
    public static func property<Root: AnyObject, Value: Sendable>(
        _ keyPath: any ReferenceWritableKeyPath<Root, Value> & Sendable,
        named name: String? = nil
    ) -> InjectedProperty {
        resolving(Value.self, named: name, into: keyPath) { (root: Root, value) in root[keyPath: keyPath] = value }
    }

    /// An optional property set to the binding for its wrapped type.
    ///
    /// - Parameters:
    ///   - keyPath: The property, such as `\Car.engine` for `var engine: Engine?`.
    ///   - name: The binding's name, or `nil` for the unnamed binding.
    /// - Returns: The declaration.
    public static func property<Root: AnyObject, Value: Sendable>(
        _ keyPath: any ReferenceWritableKeyPath<Root, Value?> & Sendable,
        named name: String? = nil
    ) -> InjectedProperty {
        resolving(Value.self, named: name, into: keyPath) { (root: Root, value) in root[keyPath: keyPath] = value }
    }

    /// A property of `Root` set to the binding for `Value`.
    private static func resolving<Root: AnyObject, Value: Sendable>(
        _ type: Value.Type,
        named name: String?,
        into path: any AnyKeyPath & Sendable,
        set: @escaping @Sendable (Root, Value) -> Void
    ) -> InjectedProperty {
        let key = BindingKey(type, named: name)
        return InjectedProperty(path: path, key: key) { object, injector, parent in
            guard let root = object as? Root else { return }
            set(root, try await injector.resolve(key, as: type, below: parent))
        }
    }

    /// Every property dependency of `type` and its superclasses, superclasses first, each once.
    static func all(of type: AnyClass) -> [InjectedProperty] {
        var levels: [[InjectedProperty]] = []
        var current: AnyClass? = type
        while let level = current {
            if let injectable = level as? any PropertyInjectable.Type {
                levels.append(injectable.injectedProperties)
            }
            current = _getSuperclass(level)
        }
        var seen: Set<AnyKeyPath> = []
        return levels.reversed().flatMap { $0 }.filter { seen.insert($0.path as AnyKeyPath).inserted }
    }
}
