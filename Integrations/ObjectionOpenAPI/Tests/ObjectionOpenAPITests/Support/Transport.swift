import Hummingbird
import Logging
import NIOCore
import OpenAPIHummingbird
import OpenAPIRuntime
import OpenAPIVapor
import Testing
import Vapor

/// The transports the middleware is tested under: each serves the tests' API over a real socket
/// on an ephemeral loopback port.
enum Transport: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case hummingbird
    case vapor

    var testDescription: String { rawValue }

    /// Serves `api` with `middlewares`, runs `body` with the server's port, then stops the
    /// server, gracefully, whether `body` throws or not.
    func serve<T: Sendable>(
        _ api: some APIProtocol,
        middlewares: [any ServerMiddleware],
        _ body: @Sendable (Int) async throws -> T
    ) async throws -> T {
        switch self {
        case .hummingbird: try await Self.serveWithHummingbird(api, middlewares: middlewares, body)
        case .vapor: try await Self.serveWithVapor(api, middlewares: middlewares, body)
        }
    }

    private static func serveWithHummingbird<T: Sendable>(
        _ api: some APIProtocol,
        middlewares: [any ServerMiddleware],
        _ body: @Sendable (Int) async throws -> T
    ) async throws -> T {
        let router = Router()
        try api.registerHandlers(on: router, middlewares: middlewares)
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Hummingbird.Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: Logger(label: "hummingbird") { _ in SwiftLogNoOpLogHandler() }
        )
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.runService() }
            defer { group.cancelAll() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else { throw ServerDidNotStart() }
            return try await body(port)
        }
    }

    private static func serveWithVapor<T: Sendable>(
        _ api: some APIProtocol,
        middlewares: [any ServerMiddleware],
        _ body: @Sendable (Int) async throws -> T
    ) async throws -> T {
        let app = try await Vapor.Application.make(
            .testing,
            logger: Logger(label: "vapor") { _ in SwiftLogNoOpLogHandler() }
        )
        let result: Result<T, any Error>
        do {
            try api.registerHandlers(on: VaporTransport(routesBuilder: app), middlewares: middlewares)
            app.http.server.configuration.hostname = "127.0.0.1"
            app.http.server.configuration.port = 0
            try await app.asyncBoot()
            try await app.server.start(address: nil)
            guard let port = app.http.server.shared.localAddress?.port else { throw ServerDidNotStart() }
            result = .success(try await body(port))
        } catch {
            result = .failure(error)
        }
        await app.server.shutdown()
        try await app.asyncShutdown()
        return try result.get()
    }

    struct ServerDidNotStart: Error {}
}
