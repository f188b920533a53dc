/// An object that builds values of one type from runtime arguments passed to each `get`
/// (Objection 1.6's argument-aware providers, Blindside's providers with `BS_DYNAMIC`). Bind it
/// with ``BindingBuilder/to(provider:arguments:_:)``.
///
/// ```swift
/// struct ReportProvider: ArgumentProvider {
///     func provide(_ resolver: Resolver, arguments: Date) async throws -> Report {
///         try await Report(store: resolver.get(ReportStore.self), day: arguments)
///     }
/// }
/// ```
public protocol ArgumentProvider<Value>: Sendable {
    /// The type this provider builds.
    associatedtype Value: Sendable
    /// The runtime arguments: one type, or a tuple of several in the order callers pass them.
    associatedtype Arguments: Sendable

    /// Builds one value.
    ///
    /// - Parameters:
    ///   - resolver: Resolves this value's own dependencies, on the path of the request.
    ///   - arguments: The runtime arguments of this `get`, or the binding's defaults.
    /// - Returns: The new value, returned to the caller as built.
    /// - Throws: Whatever construction throws; the error reaches the caller of `get` unchanged.
    func provide(_ resolver: Resolver, arguments: Arguments) async throws -> Value
}
