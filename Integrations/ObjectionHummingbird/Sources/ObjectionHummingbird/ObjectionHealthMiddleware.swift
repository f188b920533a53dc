import HTTPTypes
import Hummingbird
import NIOCore
import Objection

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Answers `GET /health/live` and `GET /health/ready` from the injector, and passes every other
/// request on: the opt-in probes of an orchestrator or a load balancer.
///
/// `/health/live` is ``Objection/InjectorActor/liveness()``, which runs no check; `/health/ready`
/// is ``Objection/InjectorActor/health(within:cachedFor:)``: not ready before a deferred start has
/// succeeded, from the first moment of shutdown, or while a required check fails. Each answers
/// `200` when it passes and `503` when it does not, with the ``Objection/HealthReport`` as a JSON
/// body, which names checks and error types, never a value. No request scope is opened for them,
/// so a probe works while the injector drains and refuses new scopes: add this middleware
/// **before** ``ObjectionScopeMiddleware``, so that it runs outside it.
///
/// ```swift
/// let router = Router(context: BasicInjectingRequestContext.self)
/// router.add(middleware: ObjectionHealthMiddleware(injector, checkTimeout: .seconds(2)))
/// router.add(middleware: ObjectionScopeMiddleware(injector))
/// ```
public struct ObjectionHealthMiddleware<Context: RequestContext>: RouterMiddleware {
    private let probes: HealthProbes

    /// Creates the middleware, answering the probes of `injector` as ``Objection/HealthProbes`` says.
    ///
    /// ```swift
    /// ObjectionHealthMiddleware<BasicInjectingRequestContext>(injector, checkTimeout: .seconds(2))
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
    /// // Hummingbird calls it for each request.
    /// ```
    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.method == .get, let (report, passes) = await probes.answer(toGETOf: request.uri.path) else {
            return try await next(request, context)
        }
        let body = try JSONEncoder().encode(report)
        return Response(
            status: passes ? .ok : .serviceUnavailable,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body))
        )
    }
}
