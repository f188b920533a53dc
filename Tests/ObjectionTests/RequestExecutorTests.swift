import Dispatch
import Synchronization
import Testing

@testable import Objection

/// A serial executor that counts the jobs enqueued on it and runs them, in order, on a queue of
/// its own: a job enqueued means the task came (back) to the executor after leaving it.
final class CountingExecutor: SerialExecutor {
    private let queue = DispatchQueue(label: "CountingExecutor")
    private let enqueued = Atomic<Int>(0)

    /// How many jobs have been enqueued so far.
    var enqueueCount: Int { enqueued.load(ordering: .sequentiallyConsistent) }

    func enqueue(_ job: consuming ExecutorJob) {
        enqueued.add(1, ordering: .sequentiallyConsistent)
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }
}

/// An actor on a ``CountingExecutor``, serving requests the way a server's connection handler
/// would: from its own isolation.
actor CountingServer {
    let executor = CountingExecutor()

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Runs `work` in a scope with `id` as its request value; returns its result and how many
    /// jobs were enqueued on this actor's executor meanwhile.
    func serve<T: Sendable>(
        _ injector: InjectorActor,
        id: RequestID,
        _ work: nonisolated(nonsending) (InjectorActor) async throws -> T
    ) async throws -> (value: T, enqueued: Int) {
        let before = executor.enqueueCount
        let value = try await injector.withScope(values: { $0.bind(RequestID.self, to: id) }) { scope in
            try await work(scope)
        }
        return (value, executor.enqueueCount - before)
    }
}

/// Another actor, on the default executor: calling it leaves the caller's executor.
actor Elsewhere {
    func ping() {}
}

@Suite("Request path executor", .hangLimit)
struct RequestExecutorTests {
    /// Scoped and transient autowired bindings (``Session``, ``Repository``, ``RequestHandler``) over
    /// singletons already built.
    static func root() async throws -> InjectorActor {
        let root = try await makeInjector { binder in
            binder.bind(RequestID.self).suppliedByScope()
            binder.bind(Config.self).toInstance(Config(dsn: "db"))
            binder.bind((any Database).self).to(PostgresDatabase.init).asSingleton()
            binder.bind(Session.self).to(Session.init).inScope(.scoped)
            binder.bind(Repository.self).to(Repository.init)
            binder.bind(RequestHandler.self).to(RequestHandler.init)
        }
        _ = try await root.get((any Database).self)
        return root
    }

    @Test("a request of synchronous bindings runs on the caller's executor without leaving it")
    func noHandOff() async throws {
        let root = try await Self.root()
        let server = CountingServer()
        for id in 0..<3 {
            let (handler, enqueued) = try await server.serve(root, id: RequestID(value: id)) { scope in
                let handler = try await scope.get(RequestHandler.self)
                _ = try await scope.get(Repository.self)
                return handler
            }
            #expect(enqueued == 0, "request \(id) left the executor \(enqueued) time(s)")
            #expect(handler.requestID == RequestID(value: id))
            #expect(handler.repository.session === handler.session)
        }
    }

    @Test("the count sees a hop: a yield, or a call to another actor, comes back through the executor")
    func hopIsCounted() async throws {
        let root = try await Self.root()
        let server = CountingServer()
        let (_, yielded) = try await server.serve(root, id: RequestID(value: 1)) { scope in
            await Task.yield()
            return try await scope.get(RequestHandler.self)
        }
        #expect(yielded >= 1)
        let elsewhere = Elsewhere()
        let (_, called) = try await server.serve(root, id: RequestID(value: 2)) { scope in
            await elsewhere.ping()
            return try await scope.get(RequestHandler.self)
        }
        #expect(called >= 1)
    }
}
