import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TodoApp

struct TestArguments: AppArguments {
    var hostname = "127.0.0.1"
    var port = 0
    var path = ""
    var inMemoryTesting = true
}

@Suite("To-dos")
struct TodoAppTests {
    func body(_ json: String) -> ByteBuffer { ByteBuffer(string: json) }

    func decode<T: Decodable>(_ type: T.Type, _ buffer: ByteBuffer) throws -> T {
        try JSONDecoder().decode(type, from: Data(String(buffer: buffer).utf8))
    }

    @Test("create, read, list, update and delete a to-do")
    func lifecycle() async throws {
        let app = try await buildApplication(TestArguments())
        try await app.test(.router) { client in
            let created = try await client.execute(uri: "/todos", method: .post, body: body(#"{"title":"milk"}"#))
            #expect(created.status == .created)
            let todo = try decode(Todo.self, created.body)
            #expect(todo.title == "milk")
            #expect(!todo.done)
            let read = try await client.execute(uri: "/todos/\(todo.id)", method: .get)
            #expect(try decode(Todo.self, read.body) == todo)
            let updated = try await client.execute(
                uri: "/todos/\(todo.id)", method: .patch, body: body(#"{"done":true}"#))
            #expect(try decode(Todo.self, updated.body).done)
            let list = try await client.execute(uri: "/todos", method: .get)
            #expect(try decode([Todo].self, list.body).count == 1)
            #expect(try await client.execute(uri: "/todos/\(todo.id)", method: .delete).status == .ok)
            #expect(try await client.execute(uri: "/todos/\(todo.id)", method: .delete).status == .notFound)
        }
    }

    @Test("a to-do that does not exist is 204, and deleting all empties the list")
    func missingAndDeleteAll() async throws {
        let app = try await buildApplication(TestArguments())
        try await app.test(.router) { client in
            #expect(try await client.execute(uri: "/todos/41", method: .get).status == .noContent)
            _ = try await client.execute(uri: "/todos", method: .post, body: body(#"{"title":"a"}"#))
            #expect(try await client.execute(uri: "/todos", method: .delete).status == .ok)
            let list = try await client.execute(uri: "/todos", method: .get)
            #expect(try decode([Todo].self, list.body).isEmpty)
        }
    }
}
