import Hummingbird
import Logging
import LoggingTestSupport
import Objection
import ObjectionHummingbird
import ObjectionServiceLifecycle
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

    /// A provider's error whose description carries a secret, as a driver's may.
    struct DatabaseDown: Error, CustomStringConvertible {
        var description: String { "could not connect to postgres://app:hunter2@db.internal/app" }
    }

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
    private func application(
        _ injector: InjectorActor,
        port: ListeningPort,
        logger: Logger = Logger(label: "quiet") { _ in SwiftLogNoOpLogHandler() }
    ) -> some ApplicationProtocol {
        let router = Router(context: BasicInjectingRequestContext.self)
        router.add(middleware: ObjectionScopeMiddleware(injector))
        router.get("ready") { _, context -> String in
            _ = try await context.resolve(Database.self)
            return "served"
        }
        var app = loopbackApplication(router, port: port, logger: logger)
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

    @Test(
        "a start-up that fails ends runService with the injector's error, logged without the provider's message; the server never listened"
    )
    func failedStartupEndsTheRun() async throws {
        let gate = Gate()
        gate.open()
        let injector = try await InjectorActor(
            modules: [DatabaseModule(gate: gate, fails: true)], startup: .deferred)
        let port = ListeningPort()
        let logs = LogCapture()
        let app = application(injector, port: port, logger: logs.logger())
        let group = ServiceGroup(services: [app], logger: logs.logger())
        let error = await #expect(throws: ServiceFailure.self) { try await group.run() }
        #expect(port.current == nil)
        let underlying = error.map { ServiceFailure.unwrapped($0) }
        #expect(
            underlying is DatabaseDown || (underlying as? InjectionError)?.description.contains("Database") == true,
            "\(String(describing: underlying))")
        // Every service group on the way logged the error it saw ("Service threw error", at debug).
        #expect(!logs.all.isEmpty)
        #expect(!logs.all.contains { "\($0)".contains("hunter2") }, "\(logs.all)")
    }
}
