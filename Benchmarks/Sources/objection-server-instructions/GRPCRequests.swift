import GRPCCore
import GRPCInProcessTransport
import Logging
import ObjectionGRPC

/// A unary `links.Links/Resolve` through grpc-swift's server, its interceptor pipeline and its
/// in-process transport, from its client: the scoped service behind `ObjectionScopeInterceptor`,
/// and its twin wired by hand, with no interceptor. The messages are the code and the URL, as
/// UTF-8 bytes.
enum GRPCRequests {
    /// Serves one of the two services and sends it `iterations` requests, after `warmUp`.
    static func run(route: ServerPath.Route, fixture: LinkFixture, warmUp: Int, iterations: Int) async throws {
        let transport = InProcessTransport()
        let logger = Logger(label: "requests", factory: { _ in SwiftLogNoOpLogHandler() })
        let interceptors: [any ServerInterceptor] =
            route != .twin
            ? [
                ObjectionScopeInterceptor(fixture.injector, logger: logger) { call, values in
                    guard
                        let user = User(authorization: call.metadata[stringValues: "authorization"].first { _ in true })
                    else { throw RPCError(code: .unauthenticated, message: "No bearer") }
                    values.bind(User.self, to: user)
                    values.bind(Logger.self, to: logger)
                }
            ] : []
        let service = LinksService(route: route, fixture: fixture, logger: logger)
        try await withGRPCServer(transport: transport.server, services: [service], interceptors: interceptors) { _ in
            try await withGRPCClient(transport: transport.client) { client in
                for _ in 0..<(warmUp + iterations) {
                    let url = try await client.unary(
                        request: ClientRequest(message: fixture.code, metadata: ["authorization": "Bearer ada"]),
                        descriptor: LinksService.resolve,
                        serializer: UTF8Coder(),
                        deserializer: UTF8Coder(),
                        options: .defaults
                    ) { try $0.message }
                    guard url == fixture.url else { throw UnexpectedAnswer(status: url) }
                }
            }
        }
    }
}

/// The service: `Resolve` answers a code with its URL, from the request scope the interceptor
/// opened, or wired by hand.
private struct LinksService: RegistrableRPCService {
    static let resolve = MethodDescriptor(fullyQualifiedService: "links.Links", method: "Resolve")

    let route: ServerPath.Route
    let fixture: LinkFixture
    let logger: Logger

    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        router.registerHandler(
            forMethod: Self.resolve,
            deserializer: UTF8Coder(),
            serializer: UTF8Coder()
        ) { request, context in
            let code = try await request.messages.first { _ in true } ?? ""
            let link: Link?
            var metadata: Metadata = [:]
            switch route {
            case .opened:
                // The scope opened and ended, nothing built in it: the glue's cost.
                guard let scope = InjectorActor.currentScope else {
                    throw RPCError(code: .internalError, message: "No request scope")
                }
                link = try await LinkLookup.handWired(
                    code, requestID: try await scope.get(RPCRequestID.self), user: try await scope.get(User.self),
                    logger: logger, table: fixture.table, auditLog: fixture.auditLog)
            case .twin:
                guard
                    let user = User(authorization: request.metadata[stringValues: "authorization"].first { _ in true })
                else { throw RPCError(code: .unauthenticated, message: "No bearer") }
                // What the interceptor does for the scoped service: the call's id, adopted or
                // made, in the response's metadata (the interceptor adds it to a log line's
                // metadata only when it logs one, which neither route does).
                let id = RPCRequestID(
                    adopting: request.metadata[stringValues: RPCRequestID.metadataKey].first { _ in true })
                metadata.addString(id.value, forKey: RPCRequestID.metadataKey)
                link = try await LinkLookup.handWired(
                    code, requestID: id, user: user, logger: logger, table: fixture.table,
                    auditLog: fixture.auditLog)
            default:
                guard let scope = InjectorActor.currentScope else {
                    throw RPCError(code: .internalError, message: "No request scope")
                }
                link = try await LinkLookup.scoped(code, in: scope)
            }
            guard let link else { throw RPCError(code: .notFound, message: "No link") }
            return StreamingServerResponse(single: ServerResponse(message: link.url, metadata: metadata))
        }
    }
}

/// A message as its UTF-8 bytes.
private struct UTF8Coder: MessageSerializer, MessageDeserializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: String) throws -> Bytes {
        Bytes(Array(message.utf8))
    }

    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> String {
        serializedMessageBytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }
}
