import Hummingbird
import Logging
import Objection
import ObjectionHummingbird
import ObjectionServiceLifecycle
import ServiceLifecycle
import Synchronization
import TestSupport
import Testing

/// A Hummingbird server and its injector in one `ServiceGroup`, over a real socket: when the
/// group's graceful shutdown escalates to cancellation with a handler still running, the injector
/// drains before it disposes, so the handler finishes with its singletons intact.
@Suite("Drain on shutdown", .timeLimit(.minutes(1)))
struct DrainTests {
    /// A singleton that records its disposal.
    final class Pool: AsyncDisposable {
        let disposed = Atomic<Bool>(false)
        func dispose() async throws { disposed.store(true, ordering: .sequentiallyConsistent) }
    }

    struct PoolModule: Module {
        func configure(_ binder: Binder) {
            binder.bind(Pool.self).to { _ in Pool() }.asSingleton()
            binder.bind(RequestIdentifier.self).suppliedByScope()
        }
    }

    @Test("a handler still running when the group escalates to cancellation keeps its singleton")
    func handlerOutlivesEscalation() async throws {
        let injector = try await InjectorActor(modules: [PoolModule()], startup: .deferred)
        let gate = Gate()
        let used = Mutex<String?>(nil)
        let router = Router(context: BasicInjectingRequestContext.self)
        router.add(middleware: ObjectionScopeMiddleware(injector))
        router.get("slow") { _, context -> String in
            let pool = try await context.resolve(Pool.self)
            // Ignores cancellation, as a handler busy with work that does not check for it.
            await gate.pass()
            used.withLock { $0 = pool.disposed.load(ordering: .sequentiallyConsistent) ? "disposed" : "intact" }
            return "done"
        }
        // Escalates at once: the server and the injector's service are cancelled while the
        // handler runs.
        _ = try await Self.serve(router, injector: injector, gracefulShutdownLimit: .zero) { group in
            await gate.waitForArrivals(1)
            await group.triggerGracefulShutdown()
            while injector.phase == .running { await Task.yield() }
            gate.open()
        }
        #expect(used.withLock { $0 } == "intact")
        #expect(injector.phase == .shutDown)
    }

    @Test("a request that completes during the graceful shutdown ends its scope succeeded: its work commits")
    func completesDuringShutdown() async throws {
        let events = EventLog()
        let injector = try await InjectorActor(
            modules: [PoolModule(), UnitOfWorkModule(events: events)],
            startup: .deferred
        )
        let gate = Gate()
        let router = Router(context: BasicInjectingRequestContext.self)
        router.add(middleware: ObjectionScopeMiddleware(injector))
        router.get("slow") { _, context -> String in
            _ = try await context.resolve(UnitOfWork.self)
            await gate.pass()
            return "done"
        }
        let reply = try await Self.serve(router, injector: injector, gracefulShutdownLimit: nil) { group in
            await gate.waitForArrivals(1)
            await group.triggerGracefulShutdown()
            gate.open()
        }
        #expect(reply.hasSuffix("done"))
        #expect(events.all == ["committed"])
        #expect(injector.phase == .shutDown)
    }

    /// A request's unit of work: committed when its scope ends succeeded.
    final class UnitOfWork: Sendable {}

    struct UnitOfWorkModule: Module {
        let events: EventLog

        func configure(_ binder: Binder) {
            binder.bind(UnitOfWork.self).to { _ in UnitOfWork() }.inScope(.scoped)
                .onDispose { [events] _, outcome in events.record(outcome.isSuccess ? "committed" : "rolled back") }
        }
    }

    /// Serves `router` beside the injector in a `ServiceGroup` over a loopback socket, sends
    /// `GET /slow` from a blocking client on a thread of its own (so that the request stays in
    /// flight), runs `body` with the group, and returns the reply once the group has ended.
    private static func serve(
        _ router: Router<BasicInjectingRequestContext>,
        injector: InjectorActor,
        gracefulShutdownLimit: Duration?,
        _ body: (ServiceGroup) async throws -> Void
    ) async throws -> String {
        let port = ListeningPort()
        let app = loopbackApplication(router, port: port)
        var configuration = ServiceGroupConfiguration(
            services: [
                .init(service: InjectorService(injector, drainTimeout: nil, logger: app.logger)),
                .init(service: app),
            ],
            logger: app.logger
        )
        configuration.maximumGracefulShutdownDuration = gracefulShutdownLimit
        let group = ServiceGroup(configuration: configuration)
        let run = Task { try await group.run() }
        let serverPort = try await port.wait()
        let reply = Task { await exchangeOnThread(port: serverPort, "GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n") }
        try await body(group)
        _ = await run.result
        return await reply.value
    }
}
