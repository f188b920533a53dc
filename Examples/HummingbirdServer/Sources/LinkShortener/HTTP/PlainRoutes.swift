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
            let links = HandWiredLinks(singletons: singletons, requestID: requestID, user: user, logger: context.logger)
            let link = try await links.resolve(code)
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
