import GRPCCore
import GRPCNIOTransportHTTP2
import Logging
import LoggingTestSupport
import Objection
import ObjectionGRPC
import ServerFixtures
import TestSupport
import Testing

/// Each RPC runs in a request scope of its own, over a real HTTP/2 socket, until its last
/// message: unary and server-streaming RPCs, a cancelled one, a failing one.
@Suite("Scope per RPC", .timeLimit(.minutes(2)))
struct ScopeInterceptorTests {
    @Test("200 concurrent unary RPCs: 200 scopes, each disposed once after its answer")
    func concurrentUnary() async throws {
        let events = EventLog()
        let serials = Counter()
        let injector = try await InjectorActor(modules: [WorkModule(events: events, serials: serials)])
        let answers = try await withWorkServer(injector: injector) { client in
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<200 {
                    group.addTask {
                        try await client.unary(
                            request: ClientRequest(message: Ask()),
                            descriptor: WorkService.get,
                            serializer: JSONCoder<Ask>(),
                            deserializer: JSONCoder<Answer>(),
                            options: .defaults
                        ) { try $0.message.text }
                    }
                }
                var answers: [String] = []
                for try await answer in group { answers.append(answer) }
                return answers
            }
        }
        #expect(Set(answers) == Set((1...200).map(String.init)))
        #expect(serials.value == 200)
        #expect(Set(events.all) == Set((1...200).map { "disposed \($0)" }))
        #expect(events.all.count == 200)
        await injector.shutdown()
    }

    @Test("A server-streaming RPC's scoped value serves every message, the last included, and is disposed after it")
    func serverStreaming() async throws {
        let events = EventLog()
        let injector = try await InjectorActor(modules: [WorkModule(events: events, serials: Counter())])
        let messages = try await withWorkServer(injector: injector) { client in
            try await client.serverStreaming(
                request: ClientRequest(message: Ask(count: 5)),
                descriptor: WorkService.stream,
                serializer: JSONCoder<Ask>(),
                deserializer: JSONCoder<Answer>(),
                options: .defaults
            ) { response in
                var texts: [String] = []
                for try await message in response.messages { texts.append(message.text) }
                return texts
            }
        }
        #expect(messages == (1...5).map { "\($0):alive:true" })
        #expect(events.all == ["disposed 1"])
        await injector.shutdown()
    }

    @Test("A client that cancels mid-stream: the scope is disposed once, with a failed outcome")
    func clientCancelsMidStream() async throws {
        let events = EventLog()
        let holding = Gate()
        let injector = try await InjectorActor(modules: [WorkModule(events: events, serials: Counter())])
        try await withWorkServer(injector: injector, holding: holding) { client in
            let call = Task {
                try await client.serverStreaming(
                    request: ClientRequest(message: Ask()),
                    descriptor: WorkService.hold,
                    serializer: JSONCoder<Ask>(),
                    deserializer: JSONCoder<Answer>(),
                    options: .defaults
                ) { response in
                    for try await _ in response.messages {}
                }
            }
            await holding.waitForArrivals(1)
            call.cancel()
            _ = await call.result
            holding.open()
            while events.all.isEmpty {
                try Task.checkCancellation()
                await Task.yield()
            }
        }
        #expect(events.all == ["disposed 1 after a failure"])
        await injector.shutdown()
    }

    @Test("A values closure that binds the request id cannot replace the one the response carries")
    func closureCannotReplaceTheID() async throws {
        let injector = try await InjectorActor(modules: [WorkModule(events: EventLog(), serials: Counter())])
        let (answered, echoed) = try await withWorkServer(injector: injector) { _, values in
            values.bind(RPCRequestID.self, to: RPCRequestID("from-closure"))
        } _: { client in
            try await client.unary(
                request: ClientRequest(message: Ask(), metadata: [RPCRequestID.metadataKey: "from-client"]),
                descriptor: WorkService.id,
                serializer: JSONCoder<Ask>(),
                deserializer: JSONCoder<Answer>(),
                options: .defaults
            ) { response in
                let echoed = response.metadata[stringValues: RPCRequestID.metadataKey].first { _ in true }
                return (try response.message.text, echoed)
            }
        }
        #expect(answered == "from-client")
        #expect(echoed == "from-client")
        await injector.shutdown()
    }

    @Test("A provider's error is answered internalError with a fixed message, logged by type, never echoing a value")
    func injectionErrorIsOpaque() async throws {
        let events = EventLog()
        let logs = LogCapture()
        let injector = try await InjectorActor(modules: [WorkModule(events: events, serials: Counter())])
        let error = try await withWorkServer(injector: injector, logger: logs.logger()) { client in
            try await rpcError(calling: WorkService.fail, on: client)
        }
        #expect(error?.code == .internalError)
        #expect(error?.message == ObjectionScopeInterceptor.internalErrorMessage)
        #expect(events.all == ["disposed 1 after a failure"])
        let logged = try #require(logs.entries(at: .error).first)
        #expect(logged.metadata["error"]?.description.contains("VaultSealedError") == true)
        // The RPC's method and request id, added when the line is logged.
        #expect(logged.metadata["rpc.method"]?.description == WorkService.fail.fullyQualifiedMethod)
        #expect(logged.metadata["request-id"]?.description.isEmpty == false)
        #expect(logs.all.allSatisfy { !"\($0)".contains(VaultSealedError.secret) })
        await injector.shutdown()
    }

    @Test("An RPC the injector refuses because it is shutting down is answered unavailable, logged at notice")
    func refusedWhileShuttingDown() async throws {
        let logs = LogCapture()
        let injector = try await InjectorActor(modules: [WorkModule(events: EventLog(), serials: Counter())])
        await injector.shutdown()
        let error = try await withWorkServer(injector: injector, logger: logs.logger()) { client in
            try await rpcError(calling: WorkService.get, on: client)
        }
        #expect(error?.code == .unavailable)
        #expect(error?.message == ObjectionScopeInterceptor.shuttingDownMessage)
        #expect(logs.entries(at: .error).isEmpty)
        #expect(logs.entries(at: .notice).count == 1)
    }
}

/// What grpc-swift does when the client leaves before the first write: it releases the response
/// without running its producer. The interceptor is called directly, so that the release is
/// certain.
@Suite("A response released unrun", .timeLimit(.minutes(1)))
struct UnrunResponseTests {
    struct UncommittableModule: Module {
        func configure(_ binder: Binder) {
            binder.bind(UncommittableWork.self).to { _ in UncommittableWork() }.inScope(.scoped)
        }
    }

    @Test("its scope ends failed, and a disposal that fails then is logged, by type")
    func releasedUnrunLogsAFailedDisposal() async throws {
        let logs = LogCapture()
        let injector = try await InjectorActor(modules: [UncommittableModule()])
        let interceptor = ObjectionScopeInterceptor(injector, logger: logs.logger())
        // "after its response failed": the scope ended with a failed outcome.
        let logged = logs.signal(whenLogged: "A disposal of the request scope failed after its response failed")
        do {
            let response: StreamingServerResponse<Answer> = try await interceptor.intercept(
                request: StreamingServerRequest(
                    metadata: [:],
                    messages: RPCAsyncSequence(wrapping: AsyncThrowingStream<Ask, any Error> { $0.finish() })
                ),
                context: ServerContext(
                    descriptor: WorkService.get,
                    remotePeer: "in-process:client",
                    localPeer: "in-process:server",
                    cancellation: ServerContext.RPCCancellationHandle()
                )
            ) { _, _ in
                _ = try await #require(InjectorActor.current).get(UncommittableWork.self)
                return StreamingServerResponse { _ in [:] }
            }
            #expect((try? response.accepted.get()) != nil)
        }
        try await logged.wait()
        let entry = try #require(logs.entries(at: .error).first)
        #expect(entry.metadata["error"]?.description.contains("CommitFailed") == true)
        #expect(entry.metadata["rpc.method"]?.description == WorkService.get.fullyQualifiedMethod)
        #expect(entry.metadata["request-id"]?.description.isEmpty == false)
        await injector.shutdown()
    }
}
