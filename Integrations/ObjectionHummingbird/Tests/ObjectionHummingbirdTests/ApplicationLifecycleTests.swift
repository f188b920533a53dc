import Hummingbird
import Logging
import Objection
import ObjectionHummingbird
import ServiceLifecycle
import TestSupport
import Testing

/// `app.addInjector(_:)`: the injector in Hummingbird's own lifecycle, over a real socket. The
/// server listens only once the eager singletons exist, and a start-up that fails ends
/// `runService()` with the injector's error, before any request was accepted.
@Suite("The injector in Hummingbird's lifecycle", .timeLimit(.minutes(1)))
struct ApplicationLifecycleTests {
    /// An eager singleton whose construction the test holds, or fails.
    final class Database: Sendable {}

    struct DatabaseDown: Error {}

    struct DatabaseModule: Module {
        let gate: Gate
        let fails: Bool

        func configure(_ binder: Binder) {
            binder.bind(RequestIdentifier.self).suppliedByScope()
            binder.bind(Database.self).to { [gate, fails] _ in
                await gate.pass()
                if fails { throw DatabaseDown() }
                return Database()
            }.asEagerSingleton()
        }
    }

    /// The application, its injector added, with a route that uses the singleton; it reports
    /// its port to `port` once it listens.
    private func application(_ injector: InjectorActor, port: ListeningPort) -> some ApplicationProtocol {
        let router = Router(context: BasicInjectingRequestContext.self)
        router.add(middleware: ObjectionScopeMiddleware(injector))
        router.get("ready") { _, context -> String in
            _ = try await context.resolve(Database.self)
            return "served"
        }
        var app = loopbackApplication(router, port: port)
        app.addInjector(injector)
        return app
    }

    @Test("the server listens only once the eager singletons are built; on shutdown the injector is disposed after it")
    func listensAfterStartup() async throws {
        let gate = Gate()
        let injector = try await InjectorActor(
            modules: [DatabaseModule(gate: gate, fails: false)], startup: .deferred)
        let port = ListeningPort()
        let app = application(injector, port: port)
        let group = ServiceGroup(services: [app], logger: Logger(label: "quiet") { _ in SwiftLogNoOpLogHandler() })
        let run = Task { try await group.run() }
        await gate.waitForArrivals(1)
        // The singleton is being built: the server has not been started, so nothing listens.
        #expect(port.current == nil)
        #expect(injector.phase == .starting)
        gate.open()
        let serverPort = try await port.wait()
        #expect(injector.phase == .running)
        let reply = await exchangeOnThread(
            port: serverPort, "GET /ready HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        #expect(reply.hasSuffix("served"))
        await group.triggerGracefulShutdown()
        try await run.value
        #expect(injector.phase == .shutDown)
    }

    @Test("a start-up that fails ends runService with the injector's error; the server never listened")
    func failedStartupEndsTheRun() async throws {
        let gate = Gate()
        gate.open()
        let injector = try await InjectorActor(
            modules: [DatabaseModule(gate: gate, fails: true)], startup: .deferred)
        let port = ListeningPort()
        let app = application(injector, port: port)
        let group = ServiceGroup(services: [app], logger: Logger(label: "quiet") { _ in SwiftLogNoOpLogHandler() })
        let error = await #expect(throws: (any Error).self) { try await group.run() }
        #expect(port.current == nil)
        #expect(
            error is DatabaseDown || (error as? InjectionError)?.description.contains("Database") == true,
            "\(String(describing: error))")
    }
}
