import Foundation
import Hummingbird
import Logging
import Objection
import ObjectionHummingbird
import ServiceLifecycle
import Synchronization
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

    /// The port the server listens on, once it does.
    final class ListeningPort: Sendable {
        let value = Mutex<Int?>(nil)
    }

    /// The application, its injector added, with a route that uses the singleton; `listening`
    /// fires with the port once the server listens.
    private func application(
        _ injector: InjectorActor,
        listening: Signal,
        port: ListeningPort
    ) -> some ApplicationProtocol {
        let router = Router(context: BasicInjectingRequestContext.self)
        router.add(middleware: ObjectionScopeMiddleware(injector))
        router.get("ready") { _, context -> String in
            _ = try await context.resolve(Database.self)
            return "served"
        }
        var logger = Logger(label: "lifecycle-tests")
        logger.logLevel = .critical
        var app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                port.value.withLock { $0 = channel.localAddress?.port }
                listening.fire()
            },
            logger: logger
        )
        app.addInjector(injector)
        return app
    }

    @Test("the server listens only once the eager singletons are built; on shutdown the injector is disposed after it")
    func listensAfterStartup() async throws {
        let gate = Gate()
        let injector = try await InjectorActor(
            modules: [DatabaseModule(gate: gate, fails: false)], startup: .deferred)
        let listening = Signal()
        let port = ListeningPort()
        let app = application(injector, listening: listening, port: port)
        let group = ServiceGroup(services: [app], logger: Logger(label: "quiet") { _ in SwiftLogNoOpLogHandler() })
        let run = Task { try await group.run() }
        await gate.waitForArrivals(1)
        // The singleton is being built: the server has not been started, so nothing listens.
        #expect(port.value.withLock { $0 } == nil)
        #expect(injector.phase == .starting)
        gate.open()
        try await listening.wait()
        #expect(injector.phase == .running)
        let serverPort = try #require(port.value.withLock { $0 })
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
        let listening = Signal()
        let port = ListeningPort()
        let app = application(injector, listening: listening, port: port)
        let group = ServiceGroup(services: [app], logger: Logger(label: "quiet") { _ in SwiftLogNoOpLogHandler() })
        let error = await #expect(throws: (any Error).self) { try await group.run() }
        #expect(port.value.withLock { $0 } == nil)
        #expect(
            error is DatabaseDown || (error as? InjectionError)?.description.contains("Database") == true,
            "\(String(describing: error))")
    }
}

/// `rawHTTPExchange` on a thread of its own: its blocking reads must not hold one of the few
/// threads the server's tasks need to answer it.
func exchangeOnThread(port: Int, _ text: String) async -> String {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: rawHTTPExchange(port: port, text)) }.start()
    }
}
