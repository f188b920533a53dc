import Hummingbird
import Logging
import LoggingTestSupport
import Objection
import ObjectionHummingbird
import ServiceLifecycle
import TestSupport
import Testing
import UnixSignals

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `runService(gracefulShutdownTimeout:)` over a real socket: a signal's graceful shutdown with a
/// handler stuck on an await that never returns and ignores cancellation ends at its bound, and
/// the injector's drain names what was still running.
@Suite("A shutdown that ends", .timeLimit(.minutes(1)))
struct ShutdownBoundTests {
    /// A request's unit of work.
    final class UnitOfWork: Sendable {}

    struct WorkModule: Module {
        func configure(_ binder: Binder) {
            binder.bind(RequestIdentifier.self).suppliedByScope()
            binder.bind(UnitOfWork.self).to { _ in UnitOfWork() }.inScope(.scoped)
        }
    }

    @Test(
        "a handler stuck for ever: runService throws ShutdownTimedOut; the request is named, the drain reports its scope"
    )
    func stuckHandler() async throws {
        let logs = LogCapture()
        let stuck = Gate()  // never opened: a wait that ignores cancellation
        let injector = try await InjectorActor(modules: [WorkModule()], startup: .deferred)
        let router = Router(context: BasicInjectingRequestContext.self)
        router.add(middleware: ObjectionScopeMiddleware(injector))
        router.get("stuck") { _, context -> String in
            _ = try await context.resolve(UnitOfWork.self)
            await stuck.pass()
            return "never"
        }
        let port = ListeningPort()
        var app = loopbackApplication(router, port: port, logger: logs.logger())
        app.addInjector(injector, drainTimeout: .milliseconds(100), logger: logs.logger())
        let cutShort = logs.signal(whenLogged: "The injector's drain was cut short at its deadline")
        let named = logs.signal(whenLogged: "Request still running when the server was cancelled")
        let run = Task {
            try await app.runService(
                gracefulShutdownSignals: [.sigusr1],
                gracefulShutdownTimeout: .milliseconds(100),
                cancellationTimeout: .milliseconds(300)
            )
        }
        let serverPort = try await port.wait()
        // The client waits on its own thread; its answer never comes and is not awaited.
        _ = Task { await exchangeOnThread(port: serverPort, "GET /stuck HTTP/1.1\r\nHost: localhost\r\n\r\n") }
        await stuck.waitForArrivals(1)
        // What an orchestrator's SIGTERM does, on a signal no other test listens for.
        kill(getpid(), SIGUSR1)
        let error = await #expect(throws: ShutdownTimedOut.self) { try await run.value }
        // The request the shutdown waited on, named when the server was cancelled.
        try await named.wait()
        let stillRunning = try #require(
            logs.entries(withMessage: "Request still running when the server was cancelled").first)
        #expect(stillRunning.metadata["http.path"] == "/stuck")
        #expect(stillRunning.metadata["request-id"] != nil)
        #expect(error?.limit == .milliseconds(400))
        try await cutShort.wait()
        let report = try #require(logs.entries(withMessage: "The injector's drain was cut short at its deadline").first)
        #expect(report.metadata["objection.error"]?.description.contains("1 request scope was still open") == true)
    }

    @Test("timeouts of a hundred years or more are none: a graceful shutdown ends the run, without a trap")
    func hugeTimeouts() async throws {
        let injector = try await InjectorActor(modules: [WorkModule()], startup: .deferred)
        let router = Router(context: BasicInjectingRequestContext.self)
        router.add(middleware: ObjectionScopeMiddleware(injector))
        router.get("work") { _, context -> String in
            _ = try await context.resolve(UnitOfWork.self)
            return "done"
        }
        let port = ListeningPort()
        var app = loopbackApplication(router, port: port)
        app.addInjector(injector)
        let run = Task {
            try await app.runService(
                gracefulShutdownSignals: [.sigusr2],
                gracefulShutdownTimeout: .seconds(Int64.max),
                cancellationTimeout: .seconds(Int64.max)
            )
        }
        let serverPort = try await port.wait()
        let reply = await exchangeOnThread(
            port: serverPort, "GET /work HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        #expect(reply.hasSuffix("done"))
        // Sleeping for either timeout, or the sum, trapped.
        kill(getpid(), SIGUSR2)
        try await run.value
        #expect(injector.phase == .shutDown)
    }
}
