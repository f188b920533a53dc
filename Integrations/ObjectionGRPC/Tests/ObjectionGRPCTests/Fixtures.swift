import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import Logging
import Objection
import ObjectionGRPC
import ObjectionServiceLifecycle
import ServerFixtures
import ServiceLifecycle
import TestSupport

/// A JSON message codec, so that the test service needs no protobuf code generation.
struct JSONCoder<Message: Codable & Sendable>: MessageSerializer, MessageDeserializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: Message) throws -> Bytes {
        Bytes(try JSONEncoder().encode(message))
    }

    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> Message {
        try JSONDecoder().decode(Message.self, from: serializedMessageBytes.withUnsafeBytes { Data($0) })
    }
}

struct Ask: Codable, Sendable {
    var count = 1
}

struct Answer: Codable, Sendable, Equatable {
    var text: String
}

/// The scoped instance each RPC resolves: its number, and whether it has been disposed.
final class RPCWork: Sendable {
    let serial: Int
    let probe = DisposalProbe()

    init(serial: Int) {
        self.serial = serial
    }
}

/// Each RPC's `RPCWork`, numbered from 1, and what happened to them.
struct WorkModule: Module {
    let events: EventLog
    let serials: Counter

    func configure(_ binder: Binder) {
        binder.bind(RPCRequestID.self).suppliedByScope()
        binder.bind(RPCWork.self).to { [serials] _ in RPCWork(serial: serials.increment()) }.inScope(.scoped)
            .onDispose { [events] work, outcome in
                work.probe.dispose()
                events.record("disposed \(work.serial)\(outcome.isSuccess ? "" : " after a failure")")
            }
        binder.bind(SealedVault.self).to { _ in throw VaultSealedError() }
    }
}

/// The test service, written by hand: `Get` (unary), `Stream` (server-streaming, `count`
/// messages), `Fail` (resolves what cannot be built), `Hold` (streams until cancelled) and `ID`
/// (answers the scope's request id).
struct WorkService: RegistrableRPCService {
    static let get = MethodDescriptor(fullyQualifiedService: "objection.Work", method: "Get")
    static let stream = MethodDescriptor(fullyQualifiedService: "objection.Work", method: "Stream")
    static let fail = MethodDescriptor(fullyQualifiedService: "objection.Work", method: "Fail")
    static let hold = MethodDescriptor(fullyQualifiedService: "objection.Work", method: "Hold")
    static let id = MethodDescriptor(fullyQualifiedService: "objection.Work", method: "ID")

    /// Passed by `Hold` once its first message is out.
    let holding: Gate

    static func work() async throws -> RPCWork {
        guard let scope = InjectorActor.currentScope else {
            throw RPCError(code: .failedPrecondition, message: "no scope")
        }
        return try await scope.get(RPCWork.self)
    }

    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        router.registerHandler(forMethod: Self.get, deserializer: JSONCoder<Ask>(), serializer: JSONCoder<Answer>()) {
            _, _ in
            let work = try await Self.work()
            return StreamingServerResponse(single: ServerResponse(message: Answer(text: "\(work.serial)")))
        }
        router.registerHandler(forMethod: Self.stream, deserializer: JSONCoder<Ask>(), serializer: JSONCoder<Answer>())
        {
            request, _ in
            let ask = try await ServerRequest(stream: request).message
            let work = try await Self.work()
            return StreamingServerResponse(of: Answer.self) { writer in
                for index in 1...ask.count {
                    // Resolved again in the producer: the scope is still the task's current one.
                    let again = try await Self.work()
                    try await writer.write(Answer(text: "\(index):\(work.probe.read()):\(again === work)"))
                }
                return [:]
            }
        }
        router.registerHandler(forMethod: Self.fail, deserializer: JSONCoder<Ask>(), serializer: JSONCoder<Answer>()) {
            _, _ in
            _ = try await Self.work()
            _ = try await InjectorActor.currentScope?.get(SealedVault.self)
            return StreamingServerResponse(single: ServerResponse(message: Answer(text: "unreachable")))
        }
        router.registerHandler(forMethod: Self.id, deserializer: JSONCoder<Ask>(), serializer: JSONCoder<Answer>()) {
            _, _ in
            let id = try await InjectorActor.currentScope?.get(RPCRequestID.self)
            return StreamingServerResponse(single: ServerResponse(message: Answer(text: id?.value ?? "none")))
        }
        router.registerHandler(forMethod: Self.hold, deserializer: JSONCoder<Ask>(), serializer: JSONCoder<Answer>()) {
            [holding] _, context in
            let work = try await Self.work()
            return StreamingServerResponse(of: Answer.self) { writer in
                try await writer.write(Answer(text: "first:\(work.probe.read())"))
                await holding.pass()
                // Until the client cancels: grpc-swift says so through the context's handle.
                try await context.cancellation.cancelled
                return [:]
            }
        }
    }
}

/// A logger whose errors a test reads.
let quietLogger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

/// Serves `WorkService` behind the scope interceptor on an ephemeral loopback port, runs `body`
/// with a client connected to it, then shuts both down.
func withWorkServer<T: Sendable>(
    injector: InjectorActor,
    holding: Gate = Gate(),
    logger: Logger = quietLogger,
    values: @escaping @Sendable (ObjectionScopeInterceptor.Call, inout ScopeValues) throws -> Void = { _, _ in },
    _ body: @Sendable (GRPCClient<HTTP2ClientTransport.Posix>) async throws -> T
) async throws -> T {
    try await withGRPCServer(
        transport: .http2NIOPosix(address: .ipv4(host: "127.0.0.1", port: 0), transportSecurity: .plaintext),
        services: [WorkService(holding: holding)],
        interceptors: [ObjectionScopeInterceptor(injector, logger: logger, values: values)]
    ) { server in
        guard let port = try await server.listeningAddress?.ipv4?.port else {
            throw RPCError(code: .unavailable, message: "the server did not bind")
        }
        return try await withGRPCClient(
            transport: .http2NIOPosix(target: .ipv4(address: "127.0.0.1", port: port), transportSecurity: .plaintext)
        ) { client in
            try await body(client)
        }
    }
}

/// Serves `services` behind the scope interceptor (after `interceptorsBefore`) on an ephemeral loopback port, in one
/// `ServiceGroup` after the injector's `InjectorService` (`injector` made with `startup: .deferred`),
/// runs `body` with a client and the group once both have started, and returns once the group
/// has ended.
func withServerInLifecycle(
    injector: InjectorActor,
    services: [any RegistrableRPCService],
    interceptorsBefore: [any ServerInterceptor] = [],
    _ body: @escaping @Sendable (GRPCClient<HTTP2ClientTransport.Posix>, ServiceGroup) async throws -> Void
) async throws {
    let server = GRPCServer(
        transport: .http2NIOPosix(address: .ipv4(host: "127.0.0.1", port: 0), transportSecurity: .plaintext),
        services: services,
        interceptors: interceptorsBefore + [ObjectionScopeInterceptor(injector, logger: quietLogger)]
    )
    let injectorService = InjectorService(injector, logger: quietLogger)
    let group = ServiceGroup(services: [injectorService, GRPCServerService(server)], logger: quietLogger)
    try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask { try await group.run() }
        try await injectorService.waitUntilStarted()
        guard let port = try await server.listeningAddress?.ipv4?.port else {
            throw RPCError(code: .unavailable, message: "the server did not bind")
        }
        try await withGRPCClient(
            transport: .http2NIOPosix(target: .ipv4(address: "127.0.0.1", port: port), transportSecurity: .plaintext)
        ) { client in
            try await body(client, group)
        }
        try await tasks.waitForAll()
    }
}

/// The `RPCError` a unary call of `method` with an `Ask` ends in, or `nil` when it succeeds.
func rpcError(
    calling method: MethodDescriptor,
    on client: GRPCClient<HTTP2ClientTransport.Posix>
) async throws -> RPCError? {
    do {
        _ = try await client.unary(
            request: ClientRequest(message: Ask()),
            descriptor: method,
            serializer: JSONCoder<Ask>(),
            deserializer: JSONCoder<Answer>(),
            options: .defaults
        ) { try $0.message }
        return nil
    } catch let error as RPCError {
        return error
    }
}
