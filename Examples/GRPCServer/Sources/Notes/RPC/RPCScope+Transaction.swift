import Logging
import Objection
import ObjectionGRPC
import PostgresNIO

extension RPCScope {
    /// Runs `body` in a transaction scope: a scope nested in the current RPC's, inside a database
    /// transaction whose connection it binds as its `PostgresConnection`.
    ///
    /// The transaction commits when `body` returns and rolls back when it throws. The scope's
    /// instances (the ``PostgresNoteStore`` on the connection) are disposed when `body` ends,
    /// inside the transaction, before the commit, each told how `body` ended. `body`'s own error
    /// reaches the caller unwrapped — an `RPCError(code: .notFound)` stays one — where
    /// postgres-nio alone would wrap it in a `PostgresTransactionError`; a failed commit reaches
    /// it as postgres-nio's error, which the interceptor answers as an opaque `internalError`.
    ///
    /// Nested in the RPC's scope, the transaction scope sees the RPC's values (its
    /// `RPCRequestID`, its `ServerContext`) without binding them again, and adds the connection
    /// and a `Logger` carrying the request id.
    ///
    /// ```swift
    /// let note = try await RPCScope.withTransaction { scope in
    ///     try await scope.get(Notebook.self).add(text)
    /// }
    /// ```
    ///
    /// - Parameter body: The RPC's work; its scope resolves the transaction's store.
    /// - Returns: What `body` returns, once the transaction has committed.
    /// - Throws: What `body` throws, after the rollback; else postgres-nio's error for a failed
    ///   `BEGIN` or `COMMIT`, or a connection it could not lend; `InjectionError` outside an RPC.
    nonisolated(nonsending) static func withTransaction<T>(
        _ body: nonisolated(nonsending) (InjectorActor) async throws -> T
    ) async throws -> T {
        let scope = try current()
        // Waits, at start-up, until the table exists.
        let database = try await scope.get(NotesDatabase.self)
        var logger = database.logger
        logger[metadataKey: "request-id"] = .string(try await scope.get(RPCRequestID.self).value)
        return try await scope.withScope(
            around: { [logger] enter in
                try await database.client.withTransaction(logger: logger) { connection in
                    try await enter { values in
                        values.bind(PostgresConnection.self, to: connection)
                        values.bind(Logger.self, to: logger)
                    }
                }
            },
            body
        )
    }
}
