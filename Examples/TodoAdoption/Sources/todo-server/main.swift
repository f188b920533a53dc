import Hummingbird
import ObjectionHummingbird
import TodoApp

struct Arguments: AppArguments {
    var hostname = "127.0.0.1"
    var port = 8080
    var path = "todos.json"
    var inMemoryTesting = false
}

let app = try await buildApplication(Arguments())
try await app.runService(gracefulShutdownTimeout: .seconds(20))
