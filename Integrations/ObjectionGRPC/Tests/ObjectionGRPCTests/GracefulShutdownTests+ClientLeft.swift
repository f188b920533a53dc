import GRPCCore
import GRPCNIOTransportHTTP2
import Objection
import ObjectionGRPC
import ServiceLifecycle
import TestSupport
import Testing

/// A call whose client left before the shutdown began — while its handler ran, or while its
/// producer did — and which returns during it without writing again: the client was told its call
/// failed, so its work must not commit.
extension GracefulShutdownTests {
    static let leftEarly = MethodDescriptor(fullyQualifiedService: "objection.Shutdown", method: "LeftEarly")
    static let leftDuringHandler = MethodDescriptor(
        fullyQualifiedService: "objection.Shutdown", method: "LeftDuringHandler")

    /// Two methods whose client leaves (the handle cancelled, before any shutdown) and which return
    /// when the server shuts down gracefully, each arriving once before and once after the client
    /// left. ``GracefulShutdownTests/leftEarly`` writes one message, then waits in its producer;
    /// ``GracefulShutdownTests/leftDuringHandler`` waits in its handler, before any response.
    struct ClientLeavingService: RegistrableRPCService {
        let arrivals: Gate

        func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
            router.registerHandler(
                forMethod: GracefulShutdownTests.leftEarly, deserializer: JSONCoder<Ask>(),
                serializer: JSONCoder<Answer>()
            ) { [arrivals] _, context in
                try await ShutdownService.work()
                return StreamingServerResponse(of: Answer.self) { writer in
                    try await writer.write(Answer(text: "first"))
                    await arrivals.pass()
                    try await context.cancellation.cancelled
                    await arrivals.pass()
                    try await gracefulShutdown()
                    return [:]
                }
            }
            router.registerHandler(
                forMethod: GracefulShutdownTests.leftDuringHandler, deserializer: JSONCoder<Ask>(),
                serializer: JSONCoder<Answer>()
            ) { [arrivals] _, _ in
                try await ShutdownService.work()
                // Waits that ignore the task's cancellation: the handler returns only during the
                // shutdown, whatever grpc-swift does to its task.
                let cancelled = Gate()
                let shuttingDown = Gate()
                await arrivals.pass()
                await withRPCCancellationHandler {
                    await cancelled.pass()
                } onCancelRPC: {
                    cancelled.open()
                }
                await arrivals.pass()
                await withGracefulShutdownHandler {
                    await shuttingDown.pass()
                } onGracefulShutdown: {
                    shuttingDown.open()
                }
                return StreamingServerResponse(of: Answer.self) { _ in [:] }
            }
        }
    }

    @Test(
        "A call whose client left before the shutdown, its handler or its producer returning during it: rolled back",
        arguments: [GracefulShutdownTests.leftDuringHandler, GracefulShutdownTests.leftEarly]
    )
    func clientLeftBeforeShutdown(method: MethodDescriptor) async throws {
        let events = EventLog()
        let arrivals = Gate()
        arrivals.open()
        let injector = try await InjectorActor(modules: [Self.work(events: events, eager: true)], startup: .deferred)
        try await withServerInLifecycle(injector: injector, services: [ClientLeavingService(arrivals: arrivals)]) {
            client, group in
            let call = Task {
                try await client.serverStreaming(
                    request: ClientRequest(message: Ask()), descriptor: method,
                    serializer: JSONCoder<Ask>(), deserializer: JSONCoder<Answer>(), options: .defaults
                ) { response in
                    for try await _ in response.messages {}
                }
            }
            await arrivals.waitForArrivals(1)
            call.cancel()
            // The client has been told its call failed.
            await #expect(throws: (any Error).self) { try await call.value }
            // The server saw the handle cancelled, and no shutdown has begun.
            await arrivals.waitForArrivals(2)
            await group.triggerGracefulShutdown()
        }
        #expect(events.all == ["rolled back", "pool disposed"])
    }
}
