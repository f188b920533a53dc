/// The id of one HTTP request: the client's `X-Request-ID`, or one the server made up.
///
/// Bound only inside a request scope, as one of its values (``RequestScopeMiddleware``).
public struct RequestIdentifier: Sendable, Hashable, CustomStringConvertible {
    /// The id as sent in the `X-Request-ID` header.
    public var value: String

    /// Wraps an id.
    ///
    /// - Parameter value: The id.
    public init(_ value: String) {
        self.value = value
    }

    public var description: String { value }
}

/// The user a request is made for, taken from its `Authorization: Bearer <name>` header.
///
/// Bound only inside a request scope, as one of its values (``RequestScopeMiddleware``).
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
