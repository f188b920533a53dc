import Hummingbird
import Logging
import Objection
import ObjectionHummingbird
import ObjectionOpenAPI
import OpenAPIHummingbird
import OpenAPIRuntime

/// The API of `openapi.yaml`, served twice beside the routes:
///
/// - under `/api` by ``ScopedLinksAPI``, through `ObjectionOpenAPIMiddleware`: a request scope per
///   operation with the request's id, user and logger as its values, alive until the response has
///   been written;
/// - under `/plain/api` by ``PlainLinksAPI``, hand-wired, without a scope: the load test's baseline.
///
/// A request without a valid bearer is answered `401`: by `ObjectionOpenAPIMiddleware` under
/// `/api` (its values closure throws an error that says its status), by the runtime's
/// `ErrorHandlingMiddleware` under `/plain/api`.
enum OpenAPIRoutes {
    static func add(
        to router: Router<BasicInjectingRequestContext>,
        injector: InjectorActor,
        config: AppConfig,
        singletons: LazySingletons
    ) throws {
        let scoped = router.group("api").add(middleware: HummingbirdRequestValues.Middleware())
        try ScopedLinksAPI(config: config).registerHandlers(
            on: scoped,
            middlewares: [scopeMiddleware(injector)]
        )
        let plain = router.group("plain/api").add(middleware: HummingbirdRequestValues.Middleware())
        try PlainLinksAPI(config: config, singletons: singletons).registerHandlers(
            on: plain,
            middlewares: [ErrorHandlingMiddleware()]
        )
    }

    /// Opens the operation's scope: authenticates the request (`401` without a valid bearer,
    /// before any scope opens) and binds its id, user and logger, as ``LinkRoutes`` does for the
    /// routes.
    static func scopeMiddleware(_ injector: InjectorActor) -> ObjectionOpenAPIMiddleware {
        ObjectionOpenAPIMiddleware(injector, logger: Logger(label: "link-shortener.openapi")) { call, values in
            let request = try HummingbirdRequestValues.required()
            guard let user = request.user else { throw OpenAPIUnauthorized() }
            values.bind(RequestIdentifier.self, to: request.requestID)
            values.bind(AuthenticatedUser.self, to: user)
            values.bind(Logger.self, to: request.logger)
        }
    }
}
