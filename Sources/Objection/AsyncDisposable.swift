/// A value that releases resources when the injector that built it is done with it.
///
/// When an injector shuts down it disposes the singletons it built, and when a request scope ends
/// it disposes the scoped instances it built: in reverse order of construction, each exactly once.
/// Values bound with `toInstance` are never disposed; their owner is the caller. A binding's
/// `onDispose` hook, when given, is used instead of `dispose()`.
///
/// ```swift
/// final class ConnectionPool: AsyncDisposable {
///     func dispose() async throws {
///         try await closeAllConnections()
///     }
/// }
/// ```
public protocol AsyncDisposable: Sendable {
    /// Releases the value's resources. Called at most once, by the injector that built the value.
    ///
    /// - Throws: Any error; it is reported with the others of the same shutdown, and does not stop
    ///   the remaining disposals.
    func dispose() async throws
}
