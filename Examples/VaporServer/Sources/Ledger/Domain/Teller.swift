/// The person a request acts for, taken from its `Authorization: Bearer <name>` header.
///
/// Bound only inside a request scope, as one of its values (``AccountRoutes``); the request's id
/// is ObjectionVapor's `RequestIdentifier`, bound the same way.
public struct Teller: Sendable, Hashable, CustomStringConvertible {
    /// The teller's name.
    public var name: String

    /// Wraps a name.
    ///
    /// - Parameter name: The name.
    public init(name: String) {
        self.name = name
    }

    public var description: String { name }
}
