import Foundation
import Objection
import Vapor

/// Answers `GET /health/live` and `GET /health/ready` from the injector, and passes every other
/// request on: the opt-in probes of an orchestrator or a load balancer.
///
/// `/health/live` is ``Objection/InjectorActor/liveness()``, which runs no check; `/health/ready`
/// is ``Objection/InjectorActor/health(within:cachedFor:)``: not ready before the application has
/// booted the injector's deferred start, from the first moment of its shutdown, or while a
/// required check fails. Each answers `200` when it passes and `503` when it does not, with the
/// ``Objection/HealthReport`` as a JSON body, which names checks and error types, never a value.
/// No request scope is opened for them, so a probe works while the injector drains and refuses
/// new scopes: register it at the beginning of the application's middleware, outside
/// ``ObjectionScopeMiddleware``.
///
/// ```swift
/// app.middleware.use(ObjectionHealthMiddleware(injector, checkTimeout: .seconds(2)), at: .beginning)
/// ```
public struct ObjectionHealthMiddleware: AsyncMiddleware {
    private let probes: HealthProbes

    /// Creates the middleware, answering the probes of `injector` as ``Objection/HealthProbes`` says.
    ///
    /// ```swift
    /// ObjectionHealthMiddleware(injector, checkTimeout: .seconds(2), cachedFor: .seconds(5))
    /// ```
    ///
    /// - Parameters:
    ///   - injector: The application's injector, whose checks and phase the probes report.
    ///   - checkTimeout: How long each check may take before it is reported unhealthy.
    ///   - cachedFor: How long a run's results answer later probes.
    public init(_ injector: InjectorActor, checkTimeout: Duration = .seconds(2), cachedFor: Duration = .seconds(1)) {
        self.probes = HealthProbes(injector, checkTimeout: checkTimeout, cachedFor: cachedFor)
    }

    /// Answers a probe, or passes the request on.
    ///
    /// ```swift
    /// // Vapor calls it for each request.
    /// ```
    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard request.method == .GET, let (report, passes) = await probes.answer(toGETOf: request.url.path) else {
            return try await next.respond(to: request)
        }
        var headers = HTTPHeaders()
        headers.contentType = .json
        headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return Response(
            status: passes ? .ok : .serviceUnavailable,
            headers: headers,
            body: .init(data: try JSONEncoder().encode(report))
        )
    }
}
