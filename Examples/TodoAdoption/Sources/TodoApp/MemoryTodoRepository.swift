/// To-dos in memory: the tests' repository.
public actor MemoryTodoRepository: TodoRepository {
    private var todos: [Int: Todo] = [:]
    private var nextID = 1

    public init() {}

    public func list() -> [Todo] { todos.values.sorted { $0.id < $1.id } }
    public func get(_ id: Int) -> Todo? { todos[id] }

    public func create(title: String) -> Todo {
        defer { nextID += 1 }
        let todo = Todo(id: nextID, title: title)
        todos[todo.id] = todo
        return todo
    }

    public func update(_ id: Int, done: Bool) -> Todo? {
        todos[id]?.done = done
        return todos[id]
    }

    public func delete(_ id: Int) -> Bool { todos.removeValue(forKey: id) != nil }
    public func deleteAll() { todos = [:] }
}
