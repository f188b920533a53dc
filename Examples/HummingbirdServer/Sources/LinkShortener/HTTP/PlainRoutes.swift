import Hummingbird

/// The baseline for measuring the injector's cost: the same work as `GET /links/:code`, with the
/// per-request objects built by hand and no request scope.
///
/// - `GET /plain/links/:code`: like `GET /links/:code`.
/// - `GET /stats`: the singletons' counters, as ``StatsResponse`` (no authentication).
enum PlainRoutes {
    static func add(to router: Router<AppRequestContext>, singletons: Singletons) {
        router.get("plain/links/:code") { request, context in
            let identity = try RequestIdentity(of: request, context: context)
            singletons.metrics.increment(.plainRequests)
            let audit = RequestAudit(
                requestID: identity.requestID,
                user: identity.user,
                sink: singletons.auditLog,
                metrics: singletons.metrics
            )
            let service = LinkService(
                requestID: identity.requestID,
                user: identity.user,
                store: singletons.store,
                codes: singletons.codes,
                audit: audit,
                metrics: singletons.metrics
            )
            let code = try context.parameters.require("code")
            let found: Result<Link?, any Error>
            do {
                found = .success(try await service.resolve(code))
            } catch {
                found = .failure(error)
            }
            // What the end of a request scope does for the other routes.
            try await audit.dispose()
            guard let link = try found.get() else { throw HTTPError(.notFound, message: "No link '\(code)'") }
            return LinkResponse(link, requestID: identity.requestID, user: identity.user)
        }

        router.get("stats") { _, _ in
            await StatsResponse(
                singletonBuilds: Dictionary(singletons.lifecycle.built.map { ($0, 1) }, uniquingKeysWith: +),
                counters: Dictionary(
                    uniqueKeysWithValues: singletons.metrics.snapshot().map { ($0.key.rawValue, $0.value) }
                ),
                auditsFlushed: singletons.auditLog.flushedCount,
                links: singletons.store.count()
            )
        }
    }
}
