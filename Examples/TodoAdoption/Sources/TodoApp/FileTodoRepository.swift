import Foundation

/// To-dos in a JSON file: the server's repository, loaded once at start-up and written on each
/// change.
public actor FileTodoRepository: TodoRepository {
    private let url: URL
    private var todos: [Todo]

    /// Loads the file at `path`; a missing file is an empty list, a malformed one an error.
    public init(path: String) async throws {
        url = URL(fileURLWithPath: path)
        if let data = try? Data(contentsOf: url) {
            todos = try JSONDecoder().decode([Todo].self, from: data)
        } else {
            todos = []
        }
    }

    public func list() -> [Todo] { todos }
    public func get(_ id: Int) -> Todo? { todos.first { $0.id == id } }

    public func create(title: String) throws -> Todo {
        let todo = Todo(id: (todos.map(\.id).max() ?? 0) + 1, title: title)
        todos.append(todo)
        try save()
        return todo
    }

    public func update(_ id: Int, done: Bool) throws -> Todo? {
        guard let index = todos.firstIndex(where: { $0.id == id }) else { return nil }
        todos[index].done = done
        try save()
        return todos[index]
    }

    public func delete(_ id: Int) throws -> Bool {
        let before = todos.count
        todos.removeAll { $0.id == id }
        try save()
        return todos.count < before
    }

    public func deleteAll() throws {
        todos = []
        try save()
    }

    private func save() throws {
        try JSONEncoder().encode(todos).write(to: url, options: .atomic)
    }
}
