import Hummingbird
import Logging
import Objection
import ObjectionHummingbird

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
    let injector = try await InjectorActor(
        modules: [TodoModule(path: arguments.path, inMemory: arguments.inMemoryTesting)],
        startup: .deferred
    )
    let router = Router(context: BasicInjectingRequestContext.self)
    router.add(middleware: ObjectionScopeMiddleware(injector))
    router.add(middleware: LogRequestsMiddleware(.info))
    router.get("health") { _, _ -> HTTPResponse.Status in .ok }
    if arguments.inMemoryTesting {
        TodoController(repository: try await injector.get(MemoryTodoRepository.self))
            .addRoutes(to: router.group("todos"))
    } else {
        TodoController(repository: try await injector.get(FileTodoRepository.self))
            .addRoutes(to: router.group("todos"))
    }
    var app = Application(
        router: router,
        configuration: .init(address: .hostname(arguments.hostname, port: arguments.port)),
        logger: logger
    )
    app.addInjector(injector)
    return app
}

/// The application's graph: the repository the arguments choose, built once.
struct TodoModule: Module {
    let path: String
    let inMemory: Bool

    func configure(_ binder: Binder) {
        if inMemory {
            binder.bind(MemoryTodoRepository.self).to { _ in MemoryTodoRepository() }.asSingleton()
        } else {
            binder.bind(FileTodoRepository.self).to { [path] _ in try await FileTodoRepository(path: path) }
                .asEagerSingleton()
        }
    }
}
