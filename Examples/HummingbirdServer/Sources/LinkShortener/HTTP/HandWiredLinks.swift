import Logging
import ObjectionHummingbird
import PostgresNIO

/// The baseline's work, wired by hand: what a transaction scope builds and disposes for the
/// injected routes, built here in a transaction of the singletons' client, without a scope. The
/// hand-wired route (``PlainRoutes``) and the hand-wired OpenAPI twin (``PlainLinksAPI``) share it.
struct HandWiredLinks: Sendable {
    let singletons: Singletons
    let requestID: RequestIdentifier
    let user: AuthenticatedUser
    let logger: Logger

    /// The link stored under `code`, or `nil`.
    ///
    /// ```swift
    /// let link = try await HandWiredLinks(singletons: s, requestID: id, user: user, logger: logger).resolve(code)
    /// ```
    func resolve(_ code: String) async throws -> Link? {
        try await inTransaction { try await $0.resolve(code) }
    }

    /// Stores `url` for the user under a new code.
    ///
    /// ```swift
    /// let link = try await HandWiredLinks(singletons: s, requestID: id, user: user, logger: logger).shorten(url)
    /// ```
    func shorten(_ url: String) async throws -> Link {
        try await inTransaction { try await $0.shorten(url) }
    }

    /// Runs `work` with a ``LinkService`` on a transaction's connection, and disposes its audit
    /// before the commit, as the end of a transaction scope does. postgres-nio wraps an error of
    /// the closure in a `PostgresTransactionError`.
    private func inTransaction<T: Sendable>(_ work: (LinkService) async throws -> T) async throws -> T {
        singletons.metrics.increment(.plainRequests)
        return try await singletons.database.client.withTransaction(logger: logger) { connection in
            let audit = RequestAudit(
                requestID: requestID,
                user: user,
                sink: singletons.auditLog,
                metrics: singletons.metrics
            )
            let service = LinkService(
                requestID: requestID,
                user: user,
                store: PostgresLinkStore(connection: connection, logger: logger),
                codes: singletons.codes,
                audit: audit,
                metrics: singletons.metrics
            )
            let result: Result<T, any Error>
            do {
                result = .success(try await work(service))
            } catch {
                result = .failure(error)
            }
            // What the end of the scope does, before the commit.
            try await audit.dispose()
            return try result.get()
        }
    }
}
