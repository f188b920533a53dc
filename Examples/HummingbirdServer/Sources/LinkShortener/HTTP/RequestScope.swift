import Hummingbird
import Objection

/// How handlers reach their dependencies: from the request scope that ``RequestScopeMiddleware``
/// made the task's current injector, never from a global.
public enum RequestScope {
    /// Resolves `type` in the current request scope.
    ///
    /// ```swift
    /// let links = try await RequestScope.get(LinkService.self)
    /// ```
    ///
    /// - Parameter type: The type to resolve.
    /// - Returns: The instance the binding's scope dictates.
    /// - Throws: `500` outside a request scope; the injector's and providers' errors.
    public static func get<T: Sendable>(_ type: T.Type) async throws -> T {
        // `currentScope`, not `current`: outside a request it is nil, never the root.
        guard let scope = InjectorActor.currentScope else {
            throw HTTPError(.internalServerError, message: "No request scope: is RequestScopeMiddleware installed?")
        }
        return try await scope.get(type)
    }
}
