import Hummingbird
import Objection

/// The API, with dependencies from the request scope:
///
/// - `POST /links` with `{"url": "…"}` stores a link for the caller; `201` with the link.
/// - `GET /links/:code` returns the link; `404` for an unknown code.
///
/// Both need `Authorization: Bearer <name>` and echo the request id and user in their body.
enum LinkRoutes {
    static func add(to router: Router<some RequestContext>, injector: InjectorActor, config: AppConfig) {
        let links = router.group("links").add(middleware: RequestScopeMiddleware(injector: injector))

        links.post { request, context in
            let body = try await request.decode(as: CreateLinkRequest.self, context: context)
            guard isAcceptable(body.url, config: config) else {
                throw HTTPError(.badRequest, message: "Expected an http(s) URL of at most \(config.maxURLLength) bytes")
            }
            let service = try await RequestScope.get(LinkService.self)
            let link = try await service.shorten(body.url)
            return EditedResponse(
                status: .created,
                response: LinkResponse(link, requestID: service.requestID, user: service.user)
            )
        }

        links.get(":code") { _, context in
            let code = try context.parameters.require("code")
            let service = try await RequestScope.get(LinkService.self)
            guard let link = try await service.resolve(code) else {
                throw HTTPError(.notFound, message: "No link '\(code)'")
            }
            return LinkResponse(link, requestID: service.requestID, user: service.user)
        }
    }

    static func isAcceptable(_ url: String, config: AppConfig) -> Bool {
        url.utf8.count <= config.maxURLLength
            && (url.hasPrefix("http://") || url.hasPrefix("https://"))
            && url.count > "https://".count
    }
}
