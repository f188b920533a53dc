import Hummingbird
import Objection
import ObjectionHummingbird
import PostgresNIO

/// The baseline for measuring the injector's cost: the same work as `GET /links/:code`, on the
/// same database, with the per-request objects built by hand and no scope.
///
/// - `GET /plain/links/:code`: like `GET /links/:code`.
/// - `GET /stats`: the singletons' counters and the links stored, as ``StatsResponse`` (no
///   authentication).
enum PlainRoutes {
    static func add(to router: Router<BasicInjectingRequestContext>, singletons lazySingletons: LazySingletons) {
        router.get("plain/links/:code") { request, context in
            let user = try RequestIdentity.user(of: request)
            // Settled by RequestIDMiddleware, as for the scoped routes.
            let requestID = context.requestID ?? RequestIdentity.requestID(of: request, context: context)
            let code = try context.parameters.require("code")
            let singletons = try await lazySingletons.get()
            singletons.metrics.increment(.plainRequests)
            let logger = context.logger
            // What the transaction scope does for the other routes, by hand. postgres-nio wraps
            // an error of the closure in a PostgresTransactionError: a 500 here, whatever it was.
            let link = try await singletons.database.client.withTransaction(logger: logger) { connection in
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
                let found: Result<Link?, any Error>
                do {
                    found = .success(try await service.resolve(code))
                } catch {
                    found = .failure(error)
                }
                // What the end of the scope does, before the commit.
                try await audit.dispose()
                return try found.get()
            }
            guard let link else { throw HTTPError(.notFound, message: "No link '\(code)'") }
            return LinkResponse(link, requestID: requestID, user: user)
        }

        router.get("stats") { _, context in
            let singletons = try await lazySingletons.get()
            return StatsResponse(
                singletonBuilds: Dictionary(singletons.lifecycle.built.map { ($0, 1) }, uniquingKeysWith: +),
                counters: Dictionary(
                    uniqueKeysWithValues: singletons.metrics.snapshot().map { ($0.key.rawValue, $0.value) }
                ),
                auditsFlushed: singletons.auditLog.flushedCount,
                links: try await singletons.database.count(logger: context.logger)
            )
        }
    }
}
