/// Identifies one binding: a type, optionally qualified by a name.
///
/// Named and unnamed bindings of the same type are different keys, so an injector can hold a
/// `Headlight` named `"left"` and another named `"right"` side by side.
///
/// ```swift
/// let left = BindingKey(Headlight.self, named: "left")
/// print(left)   // Headlight named "left"
/// ```
public struct BindingKey: Hashable, Sendable, CustomStringConvertible {
    /// The bound type.
    public let type: any Any.Type
    /// The qualifier given to `bind(_:named:)`, or `nil` for an unnamed binding.
    public let name: String?

    /// Creates the key for `type`, optionally qualified by `name`.
    ///
    /// - Parameters:
    ///   - type: The bound type; existential types such as `(any Database).self` are allowed.
    ///   - name: The qualifier, or `nil` for the unnamed binding.
    public init<T>(_ type: T.Type, named name: String? = nil) {
        // The static type, not the metatype value: a `Dog.self` passed as an `Animal.Type` names
        // `Animal`, the type the binding's values have.
        self.type = T.self
        self.name = name
    }

    /// The type's name, without its module; used in every error message.
    public var typeName: String { String(describing: type) }

    /// `Type` or `Type named "name"`.
    public var description: String {
        guard let name else { return typeName }
        return "\(typeName) named \"\(name)\""
    }

    /// Keys are equal when they name the same type and the same name.
    public static func == (lhs: BindingKey, rhs: BindingKey) -> Bool {
        ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type) && lhs.name == rhs.name
    }

    /// Hashes the type's identity and the name.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type))
        hasher.combine(name)
    }
}
