import GRPCCore
import GRPCNIOTransportHTTP2
import Logging
import Objection
import ObjectionGRPC
import ObjectionServiceLifecycle
import ServiceLifecycle
import TestSupport
import Testing

/// RPCs in flight when the server begins its graceful shutdown: those that finish succeed for
/// their client and for their scope — the unit of work commits — and only a client that leaves
/// fails it. grpc-swift-nio-transport cancels every RPC's handle on graceful shutdown, so each
/// handler here waits for that before it answers: the case the scope must not take for a
/// client's cancellation.
@Suite("Graceful shutdown with RPCs in flight", .timeLimit(.minutes(2)))
struct GracefulShutdownTests {
    /// A request's unit of work: committed when its scope ends succeeded, rolled back otherwise.
    final class UnitOfWork: Sendable {}

    /// A singleton disposed after the RPCs.
    final class Pool: AsyncDisposable {
        let events: EventLog
        init(events: EventLog) { self.events = events }
        func dispose() async throws { events.record("pool disposed") }
    }

    static let unary = MethodDescriptor(fullyQualifiedService: "objection.Shutdown", method: "Unary")
    static let stream = MethodDescriptor(fullyQualifiedService: "objection.Shutdown", method: "Stream")
    static let endless = MethodDescriptor(fullyQualifiedService: "objection.Shutdown", method: "Endless")

    /// `Unary` and `Stream` arrive at the gate, wait until the shutdown has cancelled their
    /// handle, then answer (`Stream` one message before, one after); `Endless` writes until a
    /// write fails, which is how a handler learns its client has gone.
    struct ShutdownService: RegistrableRPCService {
        let arrivals: Gate

        static func work() async throws {
            guard let scope = InjectorActor.currentScope else {
                throw RPCError(code: .internalError, message: "no scope")
            }
            _ = try await scope.get(UnitOfWork.self)
            _ = try await scope.get(Pool.self)
        }

        func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
            router.registerHandler(
                forMethod: GracefulShutdownTests.unary, deserializer: JSONCoder<Ask>(), serializer: JSONCoder<Answer>()
            ) { [arrivals] _, context in
                try await Self.work()
                await arrivals.pass()
                try await context.cancellation.cancelled
                return StreamingServerResponse(single: ServerResponse(message: Answer(text: "done")))
            }
            router.registerHandler(
                forMethod: GracefulShutdownTests.stream, deserializer: JSONCoder<Ask>(), serializer: JSONCoder<Answer>()
            ) { [arrivals] _, context in
                try await Self.work()
                return StreamingServerResponse(of: Answer.self) { writer in
                    try await writer.write(Answer(text: "before"))
                    await arrivals.pass()
                    try await context.cancellation.cancelled
                    try await writer.write(Answer(text: "after"))
                    return [:]
                }
            }
            router.registerHandler(
                forMethod: GracefulShutdownTests.endless, deserializer: JSONCoder<Ask>(),
                serializer: JSONCoder<Answer>()
            ) { [arrivals] _, _ in
                try await Self.work()
                return StreamingServerResponse(of: Answer.self) { writer in
                    try await writer.write(Answer(text: "first"))
                    await arrivals.pass()
                    while true { try await writer.write(Answer(text: "more")) }
                }
            }
        }
    }

    /// The pool, a singleton (eager, or built on first use), and a unit of work per RPC that
    /// records whether its scope committed or rolled back.
    static func work(events: EventLog, eager: Bool) -> Fixture {
        Fixture { binder in
            binder.bind(RPCRequestID.self).suppliedByScope()
            let pool = binder.bind(Pool.self).to { _ in Pool(events: events) }
            if eager { pool.asEagerSingleton() } else { pool.asSingleton() }
            binder.bind(UnitOfWork.self).to { _ in UnitOfWork() }.inScope(.scoped)
                .onDispose { _, outcome in events.record(outcome.isSuccess ? "committed" : "rolled back") }
        }
    }

    /// Calls `Stream` and returns the texts of its messages.
    static func streamed(on client: GRPCClient<HTTP2ClientTransport.Posix>) async throws -> [String] {
        try await client.serverStreaming(
            request: ClientRequest(message: Ask()), descriptor: Self.stream,
            serializer: JSONCoder<Ask>(), deserializer: JSONCoder<Answer>(), options: .defaults
        ) { response in
            var texts: [String] = []
            for try await message in response.messages { texts.append(message.text) }
            return texts
        }
    }

    /// Runs the server and the injector in a service group, calls `body` with a client once both
    /// have started, and returns what was disposed, in order, once the group has ended.
    private func serving(
        _ body: @escaping @Sendable (GRPCClient<HTTP2ClientTransport.Posix>, Gate, ServiceGroup) async throws -> Void
    ) async throws -> [String] {
        let events = EventLog()
        // Open: it counts the handlers that reach it, and holds none.
        let arrivals = Gate()
        arrivals.open()
        let injector = try await InjectorActor(modules: [Self.work(events: events, eager: true)], startup: .deferred)
        try await withServerInLifecycle(injector: injector, services: [ShutdownService(arrivals: arrivals)]) {
            client, group in
            try await body(client, arrivals, group)
        }
        return events.all
    }

    @Test(
        "A unary RPC and a server stream in flight: the client gets OK, each scope ends succeeded, then the pool is disposed"
    )
    func finishedDuringShutdown() async throws {
        let events = try await serving { client, arrivals, group in
            let unary = Task {
                try await client.unary(
                    request: ClientRequest(message: Ask()), descriptor: Self.unary,
                    serializer: JSONCoder<Ask>(), deserializer: JSONCoder<Answer>(), options: .defaults
                ) { try $0.message.text }
            }
            let stream = Task { try await Self.streamed(on: client) }
            await arrivals.waitForArrivals(2)
            await group.triggerGracefulShutdown()
            let answer = try await unary.value
            let messages = try await stream.value
            #expect(answer == "done")
            #expect(messages == ["before", "after"])
        }
        #expect(events == ["committed", "committed", "pool disposed"])
    }

    @Test("A client that cancels during the shutdown: its scope ends failed, and the pool is disposed after")
    func cancelledDuringShutdown() async throws {
        let events = try await serving { client, arrivals, group in
            let call = Task {
                try await client.serverStreaming(
                    request: ClientRequest(message: Ask()), descriptor: Self.endless,
                    serializer: JSONCoder<Ask>(), deserializer: JSONCoder<Answer>(), options: .defaults
                ) { response in
                    for try await _ in response.messages {}
                }
            }
            await arrivals.waitForArrivals(1)
            await group.triggerGracefulShutdown()
            call.cancel()
            _ = await call.result
        }
        #expect(events == ["rolled back", "pool disposed"])
    }

    @Test(
        "A server shut down gracefully outside a service group: an RPC whose scope rolled back is not answered OK"
    )
    func rolledBackOutsideGroup() async throws {
        let events = EventLog()
        let arrivals = Gate()
        arrivals.open()
        let injector = try await InjectorActor(modules: [Self.work(events: events, eager: false)])
        let server = GRPCServer(
            transport: .http2NIOPosix(address: .ipv4(host: "127.0.0.1", port: 0), transportSecurity: .plaintext),
            services: [ShutdownService(arrivals: arrivals)],
            interceptors: [ObjectionScopeInterceptor(injector, logger: quietLogger)]
        )
        let outcome = try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await server.serve() }
            guard let port = try await server.listeningAddress?.ipv4?.port else {
                throw RPCError(code: .unavailable, message: "the server did not bind")
            }
            let outcome = try await withGRPCClient(
                transport: .http2NIOPosix(
                    target: .ipv4(address: "127.0.0.1", port: port), transportSecurity: .plaintext)
            ) { client in
                let call = Task { try await Self.streamed(on: client) }
                await arrivals.waitForArrivals(1)
                // Outside a service group: the transport cancels the RPC's handle, and nothing
                // tells the interceptor that this is a graceful shutdown rather than the client.
                server.beginGracefulShutdown()
                return await call.result
            }
            try await tasks.waitForAll()
            return outcome
        }
        await injector.shutdown()
        #expect(events.all == ["rolled back", "pool disposed"])
        switch outcome {
        case .success(let messages):
            Issue.record("the client was answered OK (\(messages)) for work that was rolled back")
        case .failure(let error):
            #expect((error as? RPCError)?.code == .cancelled)
            #expect((error as? RPCError)?.message == ObjectionScopeInterceptor.cutShortMessage)
        }
    }
}

/// An RPC whose deadline passed before the shutdown began, answered during it.
extension GracefulShutdownTests {
    static let pastDeadline = MethodDescriptor(fullyQualifiedService: "objection.Shutdown", method: "PastDeadline")

    /// Listed before the scope interceptor: an auth check that outlasts the RPC's deadline (it
    /// returns once grpc-swift has cancelled the handle at the deadline).
    struct SlowAuth: ServerInterceptor {
        func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingServerRequest<Input>,
            context: ServerContext,
            next:
                @Sendable (StreamingServerRequest<Input>, ServerContext) async throws ->
                StreamingServerResponse<Output>
        ) async throws -> StreamingServerResponse<Output> {
            try await context.cancellation.cancelled
            return try await next(request, context)
        }
    }

    /// Does the work, arrives, then answers once the server shuts down gracefully.
    struct LateService: RegistrableRPCService {
        let arrivals: Gate

        func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
            router.registerHandler(
                forMethod: GracefulShutdownTests.pastDeadline, deserializer: JSONCoder<Ask>(),
                serializer: JSONCoder<Answer>()
            ) { [arrivals] _, _ in
                try await ShutdownService.work()
                await arrivals.pass()
                try await gracefulShutdown()
                return StreamingServerResponse(single: ServerResponse(message: Answer(text: "done")))
            }
        }
    }

    @Test("An RPC whose deadline passed before the shutdown, answered during it: rolled back, never OK")
    func deadlinePassedBeforeShutdown() async throws {
        let events = EventLog()
        let arrivals = Gate()
        arrivals.open()
        let injector = try await InjectorActor(modules: [Self.work(events: events, eager: true)], startup: .deferred)
        try await withServerInLifecycle(
            injector: injector, services: [LateService(arrivals: arrivals)], interceptorsBefore: [SlowAuth()]
        ) { client, group in
            var metadata = Metadata()
            // Enforced by the server: it cancels the RPC's handle once 50 ms have passed.
            metadata.addString("50m", forKey: "grpc-timeout")
            let call = Task {
                try await client.unary(
                    request: ClientRequest(message: Ask(), metadata: metadata), descriptor: Self.pastDeadline,
                    serializer: JSONCoder<Ask>(), deserializer: JSONCoder<Answer>(), options: .defaults
                ) { try $0.message.text }
            }
            // The handler runs only after the deadline cancelled the handle (SlowAuth).
            await arrivals.waitForArrivals(1)
            await group.triggerGracefulShutdown()
            if case .success(let text) = await call.result {
                Issue.record("the client was answered OK (\(text)) for work that was rolled back")
            }
        }
        #expect(events.all == ["rolled back", "pool disposed"])
    }
}
