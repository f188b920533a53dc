import OpenAPIRuntime

/// The hand-wired twin of ``ScopedLinksAPI``, served under `/plain/api` without Objection's
/// middleware: the same operations from the same `openapi.yaml`, the per-request objects built by
/// hand (``HandWiredLinks``), for the load test's baseline.
struct PlainLinksAPI: APIProtocol {
    let config: AppConfig
    let singletons: LazySingletons

    func createLink(_ input: Operations.CreateLink.Input) async throws -> Operations.CreateLink.Output {
        let links = try await handWired()
        let body =
            switch input.body {
            case .json(let body): body
            }
        guard LinkRoutes.isAcceptable(body.url, config: config) else {
            return .badRequest(.init(body: .json(.init(message: LinkRoutes.unacceptableURLMessage(config)))))
        }
        let link = try await links.shorten(body.url)
        return .created(.init(body: .json(.init(link, requestID: links.requestID, user: links.user))))
    }

    func getLink(_ input: Operations.GetLink.Input) async throws -> Operations.GetLink.Output {
        let links = try await handWired()
        guard let link = try await links.resolve(input.path.code) else {
            return .notFound(.init(body: .json(.noLink(input.path.code))))
        }
        return .ok(.init(body: .json(.init(link, requestID: links.requestID, user: links.user))))
    }

    /// The request's hand-wired objects: its user from the `Authorization` header (`401`
    /// without), its id and logger from Hummingbird's context.
    private func handWired() async throws -> HandWiredLinks {
        let request = try HummingbirdRequestValues.required()
        guard let user = request.user else { throw OpenAPIUnauthorized() }
        return HandWiredLinks(
            singletons: try await singletons.get(),
            requestID: request.requestID,
            user: user,
            logger: request.logger
        )
    }
}
