import Foundation
import Hummingbird
import Logging
import NIOCore
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
        let port = Mutex<Int?>(nil)
        let listening = Signal()
        var logger = Logger(label: "drain-tests")
        logger.logLevel = .critical
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                port.withLock { $0 = channel.localAddress?.port }
                listening.fire()
            },
            logger: logger
        )
        var configuration = ServiceGroupConfiguration(
            services: [
                .init(service: InjectorService(injector, drainTimeout: nil, logger: logger)),
                .init(service: app),
            ],
            logger: logger
        )
        // Escalates at once: the server and the injector's service are cancelled while the
        // handler runs.
        configuration.maximumGracefulShutdownDuration = .zero
        let group = ServiceGroup(configuration: configuration)
        let run = Task { try await group.run() }
        try await listening.wait()
        let serverPort = try #require(port.withLock { $0 })
        let replied = Signal()
        // A blocking client on a thread of its own: the request stays in flight.
        Thread {
            _ = rawHTTPExchange(port: serverPort, "GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n")
            replied.fire()
        }.start()
        await gate.waitForArrivals(1)
        await group.triggerGracefulShutdown()
        while injector.phase == .running { await Task.yield() }
        gate.open()
        _ = await run.result
        try await replied.wait()
        #expect(used.withLock { $0 } == "intact")
        #expect(injector.phase == .shutDown)
    }
}
