import Hummingbird
import Logging

/// What the server is started with.
public protocol AppArguments {
    var hostname: String { get }
    var port: Int { get }
    /// Where the to-dos are kept.
    var path: String { get }
    /// Keep the to-dos in memory: the tests.
    var inMemoryTesting: Bool { get }
}

/// The application: its router, its repository and how it runs.
public func buildApplication(_ arguments: some AppArguments) async throws -> some ApplicationProtocol {
    var logger = Logger(label: "todos")
    logger.logLevel = .info
    let router = Router()
    router.add(middleware: LogRequestsMiddleware(.info))
    router.get("health") { _, _ -> HTTPResponse.Status in .ok }
    if arguments.inMemoryTesting {
        TodoController(repository: MemoryTodoRepository()).addRoutes(to: router.group("todos"))
    } else {
        TodoController(repository: try await FileTodoRepository(path: arguments.path))
            .addRoutes(to: router.group("todos"))
    }
    return Application(
        router: router,
        configuration: .init(address: .hostname(arguments.hostname, port: arguments.port)),
        logger: logger
    )
}
