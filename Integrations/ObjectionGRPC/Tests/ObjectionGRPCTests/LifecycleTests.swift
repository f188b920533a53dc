import GRPCCore
import GRPCNIOTransportHTTP2
import Logging
import Objection
import ObjectionGRPC
import ObjectionServiceLifecycle
import ServiceLifecycle
import TestSupport
import Testing

/// The server in the injector's lifecycle: the eager singletons are built before it answers, and
/// on graceful shutdown the RPCs in flight finish before the singletons are disposed.
@Suite("Server lifecycle", .timeLimit(.minutes(2)))
struct LifecycleTests {
    /// A singleton the held RPC uses after shutdown has begun.
    final class Pool: AsyncDisposable {
        let events: EventLog
        init(events: EventLog) { self.events = events }
        func dispose() async throws { events.record("pool disposed") }
    }

    static let held = MethodDescriptor(fullyQualifiedService: "objection.Lifecycle", method: "Held")

    /// `Held`: uses the pool, waits at the gate, uses the pool again, answers.
    struct HeldService: RegistrableRPCService {
        let gate: Gate
        let events: EventLog

        func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
            router.registerHandler(
                forMethod: LifecycleTests.held, deserializer: JSONCoder<Ask>(), serializer: JSONCoder<Answer>()
            ) {
                [gate, events] _, _ in
                guard let scope = InjectorActor.currentScope else {
                    throw RPCError(code: .internalError, message: "no scope")
                }
                _ = try await scope.get(Pool.self)
                await gate.pass()
                _ = try await scope.get(Pool.self)
                events.record("rpc answered")
                return StreamingServerResponse(single: ServerResponse(message: Answer(text: "done")))
            }
        }
    }

    @Test("Graceful shutdown with an RPC in flight: it finishes with its singletons, then they are disposed")
    func shutdownWithRPCInFlight() async throws {
        let events = EventLog()
        let gate = Gate()
        let injector = try await InjectorActor(
            modules: [
                Fixture { binder in
                    binder.bind(RPCRequestID.self).suppliedByScope()
                    binder.bind(Pool.self).to { _ in Pool(events: events) }.asEagerSingleton()
                }
            ],
            startup: .deferred
        )
        try await withServerInLifecycle(injector: injector, services: [HeldService(gate: gate, events: events)]) {
            client, group in
            let call = Task {
                try await client.unary(
                    request: ClientRequest(message: Ask()),
                    descriptor: Self.held,
                    serializer: JSONCoder<Ask>(),
                    deserializer: JSONCoder<Answer>(),
                    options: .defaults
                ) { try $0.message.text }
            }
            await gate.waitForArrivals(1)
            await group.triggerGracefulShutdown()
            // Nothing is disposed while the RPC is held.
            #expect(events.all.isEmpty)
            gate.open()
            let answer = try await call.value
            #expect(answer == "done")
        }
        #expect(events.all == ["rpc answered", "pool disposed"])
    }
}

/// A module built from a closure.
struct Fixture: Module {
    let body: @Sendable (Binder) -> Void
    init(_ body: @escaping @Sendable (Binder) -> Void) { self.body = body }
    func configure(_ binder: Binder) { body(binder) }
}
