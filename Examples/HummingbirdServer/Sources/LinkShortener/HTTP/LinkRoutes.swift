import HTTPTypes
import Hummingbird
import Logging
import Objection
import ObjectionHummingbird

/// The API, with dependencies from the request scope:
///
/// - `POST /links` with `{"url": "…"}` stores a link for the caller; `201` with the link.
/// - `GET /links/:code` returns the link; `404` for an unknown code.
///
/// Both need `Authorization: Bearer <name>` and echo the request id and user in their body. Each
/// request gets a request scope from `ObjectionScopeMiddleware`, with its id, user and logger as
/// values, and, once its body is read, a transaction scope inside it
/// (`context.withTransaction`).
enum LinkRoutes {
    static func add(to router: Router<BasicInjectingRequestContext>, injector: InjectorActor, config: AppConfig) {
        let links = router.group("links").add(middleware: scopeMiddleware(injector))

        links.post { request, context in
            // Read first, so that the request keeps the quota in force when it began, however long
            // its body takes to arrive; `X-Link-Quota` tells which.
            let quota = try await context.resolve(LinkQuota.self)
            let user = try await context.resolve(AuthenticatedUser.self)
            guard quota.admit(user.name) else {
                throw HTTPError(.tooManyRequests, headers: quotaHeader(quota), message: "Link quota reached")
            }
            // Read and checked before the transaction opens: a slow client holds no connection.
            let body = try await request.decode(as: CreateLinkRequest.self, context: context)
            guard isAcceptable(body.url, config: config) else {
                throw HTTPError(.badRequest, message: unacceptableURLMessage(config))
            }
            return try await context.withTransaction { scope in
                let service = try await scope.get(LinkService.self)
                let link = try await service.shorten(body.url)
                return EditedResponse(
                    status: .created,
                    headers: quotaHeader(quota),
                    response: LinkResponse(link, requestID: service.requestID, user: service.user)
                )
            }
        }

        links.get(":code") { _, context in
            let code = try context.parameters.require("code")
            return try await context.withTransaction { scope in
                let service = try await scope.get(LinkService.self)
                guard let link = try await service.resolve(code) else {
                    throw HTTPError(.notFound, message: "No link '\(code)'")
                }
                return LinkResponse(link, requestID: service.requestID, user: service.user)
            }
        }
    }

    /// `X-Link-Quota`: the quota a request was admitted under.
    static func quotaHeader(_ quota: LinkQuota) -> HTTPFields {
        guard let name = HTTPField.Name.linkQuota else { return [:] }
        return [name: "\(quota.limit)"]
    }

    /// Opens the request scope: authenticates the request (`401` without a valid bearer, before
    /// any scope opens) and binds its id, user and logger as the scope's values, which the root
    /// declares with `suppliedByScope()`.
    static func scopeMiddleware(_ injector: InjectorActor) -> ObjectionScopeMiddleware<BasicInjectingRequestContext> {
        ObjectionScopeMiddleware(injector) { request, context, values in
            let user = try RequestIdentity.user(of: request)
            if let id = context.requestID { values.bind(RequestIdentifier.self, to: id) }
            values.bind(AuthenticatedUser.self, to: user)
            values.bind(Logger.self, to: context.logger)
        }
    }

    /// Whether `url` may be stored: at most `maxURLLength` bytes, `http` or `https` with a host,
    /// and no whitespace or control characters (spaces, line breaks, NUL, zero-width and
    /// bidirectional marks): a URL has none, and the service would store them and hand them back
    /// verbatim.
    static func isAcceptable(_ url: String, config: AppConfig) -> Bool {
        guard url.utf8.count <= config.maxURLLength, !url.unicodeScalars.contains(where: isWhitespaceOrControl) else {
            return false
        }
        let rest: Substring
        if url.hasPrefix("https://") {
            rest = url.dropFirst("https://".count)
        } else if url.hasPrefix("http://") {
            rest = url.dropFirst("http://".count)
        } else {
            return false
        }
        // The authority runs to the first `/`, `?` or `#`; its host follows any user information
        // and precedes any port. An IPv6 host is bracketed: `[::1]:8080`.
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority
        let host =
            hostAndPort.first == "["
            ? hostAndPort.dropFirst().prefix { $0 != "]" }
            : hostAndPort.prefix { $0 != ":" }
        return !host.isEmpty
    }

    /// What a `400` for a URL that ``isAcceptable(_:config:)`` refuses says.
    static func unacceptableURLMessage(_ config: AppConfig) -> String {
        "Expected an http(s) URL with a host, of at most \(config.maxURLLength) bytes, "
            + "without whitespace or control characters"
    }

    /// Format characters (zero-width and bidirectional marks) count as control characters here.
    private static func isWhitespaceOrControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator: true
        default: scalar.properties.isWhitespace
        }
    }
}

extension HTTPField.Name {
    /// The quota a `POST /links` was admitted under (``LinkQuota/limit``).
    static let linkQuota = HTTPField.Name("X-Link-Quota")
}
