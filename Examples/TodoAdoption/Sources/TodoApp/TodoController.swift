import Hummingbird

/// The to-do routes, over any repository.
public struct TodoController<Repository: TodoRepository, Context: RequestContext>: Sendable {
    let repository: Repository

    public init(repository: Repository) {
        self.repository = repository
    }

    struct NewTodo: Decodable { var title: String }
    struct Change: Decodable { var done: Bool }

    public func addRoutes(to group: RouterGroup<Context>) {
        group.get(use: list)
        group.get(":id", use: get)
        group.post(use: create)
        group.patch(":id", use: update)
        group.delete(":id", use: delete)
        group.delete(use: deleteAll)
    }

    @Sendable func list(_ request: Request, context: Context) async throws -> [Todo] {
        try await repository.list()
    }

    @Sendable func get(_ request: Request, context: Context) async throws -> Todo? {
        try await repository.get(context.parameters.require("id", as: Int.self))
    }

    @Sendable func create(_ request: Request, context: Context) async throws -> EditedResponse<Todo> {
        let new = try await request.decode(as: NewTodo.self, context: context)
        return EditedResponse(status: .created, response: try await repository.create(title: new.title))
    }

    @Sendable func update(_ request: Request, context: Context) async throws -> Todo? {
        let change = try await request.decode(as: Change.self, context: context)
        return try await repository.update(context.parameters.require("id", as: Int.self), done: change.done)
    }

    @Sendable func delete(_ request: Request, context: Context) async throws -> HTTPResponse.Status {
        try await repository.delete(context.parameters.require("id", as: Int.self)) ? .ok : .notFound
    }

    @Sendable func deleteAll(_ request: Request, context: Context) async throws -> HTTPResponse.Status {
        try await repository.deleteAll()
        return .ok
    }
}
