import Hummingbird
import Objection
import ObjectionHummingbird
import PostgresNIO

extension InjectingRequestContext {
    /// Runs `body` in a transaction scope: a scope nested in the request's, inside a database
    /// transaction whose connection it binds as its `PostgresConnection`.
    ///
    /// The transaction commits when `body` returns and rolls back when it throws. The scope's
    /// instances (the ``PostgresLinkStore`` on the connection, the ``RequestAudit``) are disposed
    /// when `body` ends, inside the transaction, before the commit. `body`'s own error reaches the
    /// caller unwrapped, an `HTTPError` still an `HTTPError`, where postgres-nio alone would wrap
    /// it in a `PostgresTransactionError`; a failed commit reaches it as postgres-nio's error.
    ///
    /// Nested in the request scope, the transaction scope sees the request's values (its id, user
    /// and logger) without binding them again. Call it once the request's body is read, so that a
    /// slow client holds no connection.
    ///
    /// ```swift
    /// links.post { request, context in
    ///     let body = try await request.decode(as: CreateLinkRequest.self, context: context)
    ///     return try await context.withTransaction { scope in
    ///         try await scope.get(LinkService.self).shorten(body.url)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter body: The request's work; its scope resolves the transaction's store.
    /// - Returns: What `body` returns, once the transaction has committed.
    /// - Throws: What `body` throws, after the rollback; else postgres-nio's error for a failed
    ///   `BEGIN` or `COMMIT`, or a connection it could not lend; `InjectionError` with code
    ///   `scopeViolation` outside `ObjectionScopeMiddleware`.
    nonisolated(nonsending) public func withTransaction<T>(
        _ body: nonisolated(nonsending) (InjectorActor) async throws -> T
    ) async throws -> T {
        guard let requestScope = requestScope.injector else {
            throw InjectionError(
                code: .scopeViolation,
                message: "No request scope to open a transaction in: add ObjectionScopeMiddleware before the route"
            )
        }
        return try await LinkTransaction.run(in: requestScope, logger: logger, body)
    }
}
