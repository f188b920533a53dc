import Logging
import Objection

/// The API of `openapi.yaml`, served under `/api` through `ObjectionOpenAPIMiddleware`: each
/// operation resolves from its request scope, the task's current injector, and does its work in a
/// transaction scope inside it (``LinkTransaction``), as the `/links` routes do.
struct ScopedLinksAPI: APIProtocol {
    let config: AppConfig

    struct NoRequestScope: Error {}

    func createLink(_ input: Operations.CreateLink.Input) async throws -> Operations.CreateLink.Output {
        let body =
            switch input.body {
            case .json(let body): body
            }
        guard LinkRoutes.isAcceptable(body.url, config: config) else {
            return .badRequest(.init(body: .json(.init(message: LinkRoutes.unacceptableURLMessage(config)))))
        }
        return try await inTransaction { service in
            let link = try await service.shorten(body.url)
            return .created(.init(body: .json(.init(link, requestID: service.requestID, user: service.user))))
        }
    }

    func getLink(_ input: Operations.GetLink.Input) async throws -> Operations.GetLink.Output {
        let code = input.path.code
        return try await inTransaction { service in
            guard let link = try await service.resolve(code) else {
                return .notFound(.init(body: .json(.noLink(code))))
            }
            return .ok(.init(body: .json(.init(link, requestID: service.requestID, user: service.user))))
        }
    }

    /// Runs `work` with the ``LinkService`` of a transaction scope in the request's scope.
    private func inTransaction<T>(_ work: (LinkService) async throws -> T) async throws -> T {
        guard let scope = InjectorActor.currentScope else { throw NoRequestScope() }
        let logger = try await scope.get(Logger.self)
        return try await LinkTransaction.run(in: scope, logger: logger) { transaction in
            try await work(try await transaction.get(LinkService.self))
        }
    }
}
