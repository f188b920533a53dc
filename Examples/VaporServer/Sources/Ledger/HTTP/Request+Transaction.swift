import Logging
import Objection
import ObjectionVapor
import PostgresNIO
import Vapor

extension Request {
    /// Runs `body` in a transaction scope: a scope nested in the request's, inside a database
    /// transaction whose connection it binds as its `PostgresConnection`.
    ///
    /// The transaction commits when `body` returns and rolls back when it throws. The scope's
    /// instances (the ``PostgresAccountStore`` on the connection, the ``RequestJournal``) are
    /// disposed when `body` ends, inside the transaction, before the commit or the rollback, each
    /// told how `body` ended. `body`'s own error reaches the caller unwrapped, an `Abort` still an
    /// `Abort`, where postgres-nio alone would wrap it in a `PostgresTransactionError`; a failed
    /// commit reaches it as postgres-nio's error.
    ///
    /// Nested in the request scope that ObjectionVapor's `ObjectionScopeMiddleware` opened, the
    /// transaction scope sees the request's values (its id, teller and logger) without binding
    /// them again. Call it in the handler, where Vapor has already collected the request's body,
    /// so that a slow client holds no connection.
    ///
    /// ```swift
    /// scoped.post("accounts") { req async throws -> AccountResponse in
    ///     let body = try req.content.decode(OpenAccountRequest.self)
    ///     return try await req.withTransaction { scope in
    ///         let service = try await scope.get(LedgerService.self)
    ///         return AccountResponse(try await service.open(owner: body.owner, balance: body.balance), for: service)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter body: The request's work; its scope resolves the transaction's store.
    /// - Returns: What `body` returns, once the transaction has committed.
    /// - Throws: What `body` throws, after the rollback; else postgres-nio's error for a failed
    ///   `BEGIN` or `COMMIT`, or a connection it could not lend; `InjectionError` with code
    ///   `scopeViolation` on a route without `ObjectionScopeMiddleware`.
    nonisolated(nonsending) public func withTransaction<T>(
        _ body: nonisolated(nonsending) (InjectorActor) async throws -> T
    ) async throws -> T {
        guard let requestScope else {
            throw InjectionError(
                code: .scopeViolation,
                message: "No request scope to open a transaction in: add ObjectionScopeMiddleware to the route"
            )
        }
        let database = try await requestScope.get(LedgerDatabase.self)
        let logger = self.logger
        return try await requestScope.withScope(
            around: { enter in
                try await database.client.withTransaction(logger: logger) { connection in
                    try await enter { $0.bind(PostgresConnection.self, to: connection) }
                }
            },
            body
        )
    }
}
