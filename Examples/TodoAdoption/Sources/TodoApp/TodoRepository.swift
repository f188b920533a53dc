/// Where to-dos are kept.
public protocol TodoRepository: Sendable {
    func list() async throws -> [Todo]
    func get(_ id: Int) async throws -> Todo?
    func create(title: String) async throws -> Todo
    func update(_ id: Int, done: Bool) async throws -> Todo?
    func delete(_ id: Int) async throws -> Bool
    func deleteAll() async throws
}
