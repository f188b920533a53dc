/// The user a request is made for, taken from its `Authorization: Bearer <name>` header.
///
/// Bound only inside a request scope, as one of its values (``LinkRoutes``); the request's id is
/// ObjectionHummingbird's `RequestIdentifier`, bound the same way.
public struct AuthenticatedUser: Sendable, Hashable, CustomStringConvertible {
    /// The user's name.
    public var name: String

    /// Wraps a user name.
    ///
    /// - Parameter name: The name.
    public init(name: String) {
        self.name = name
    }

    public var description: String { name }
}
