import Logging
import Objection
import PostgresNIO

/// A transaction scope: a scope nested in a request's, inside a database transaction whose
/// connection it binds as its `PostgresConnection`. The routes (`InjectingRequestContext`'s
/// `withTransaction`) and the OpenAPI operations (``ScopedLinksAPI``) both open theirs here.
enum LinkTransaction {
    /// Runs `body` in a transaction scope nested in `requestScope`.
    ///
    /// The transaction commits when `body` returns and rolls back when it throws. The scope's
    /// instances (the ``PostgresLinkStore`` on the connection, the ``RequestAudit``) are disposed
    /// when `body` ends, inside the transaction, before the commit. `body`'s own error reaches the
    /// caller unwrapped, where postgres-nio alone would wrap it in a `PostgresTransactionError`;
    /// a failed commit reaches it as postgres-nio's error.
    ///
    /// ```swift
    /// let link = try await LinkTransaction.run(in: scope, logger: logger) { scope in
    ///     try await scope.get(LinkService.self).resolve(code)
    /// }
    /// ```
    nonisolated(nonsending) static func run<T>(
        in requestScope: InjectorActor,
        logger: Logger,
        _ body: nonisolated(nonsending) (InjectorActor) async throws -> T
    ) async throws -> T {
        // Waits, at start-up, until the table exists.
        let database = try await requestScope.get(LinkDatabase.self)
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
