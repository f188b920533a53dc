/// An object that builds values of one type: Objection's provider classes.
///
/// Use a provider when construction needs state or collaborators of its own that a closure would
/// capture awkwardly. Bind it with ``BindingBuilder/to(provider:)``.
///
/// ```swift
/// struct ConnectionPoolProvider: Provider {
///     let size: Int
///
///     func provide(_ resolver: Resolver) async throws -> ConnectionPool {
///         try await ConnectionPool(config: resolver.get(Config.self), size: size)
///     }
/// }
///
/// binder.bind(ConnectionPool.self).to(provider: ConnectionPoolProvider(size: 8)).asSingleton()
/// ```
public protocol Provider<Value>: Sendable {
    /// The type this provider builds.
    associatedtype Value: Sendable

    /// Builds one value.
    ///
    /// - Parameter resolver: Resolves this value's own dependencies, on the path of the request.
    /// - Returns: The new value.
    /// - Throws: Whatever construction throws; the error reaches the caller of `get` unchanged.
    func provide(_ resolver: Resolver) async throws -> Value
}
