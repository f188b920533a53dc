import Hummingbird
import LinkShortener
import Logging
import Objection
import ServiceLifecycle

/// The service, assembled as `main.swift` assembles it, listening on an ephemeral loopback port.
struct TestServer: Sendable {
    struct DidNotStart: Error {}

    let port: Int
    let injector: InjectorActor
    let lifecycle: LifecycleLog
    let group: ServiceGroup
    let running: Task<Void, any Error>

    /// Starts the server with `AppModule` plus `modules`, the application wrapped by `wrap`.
    static func start(
        modules: [any Module] = [],
        wrap: @Sendable (any Service) -> any Service = { $0 }
    ) async throws -> TestServer {
        let lifecycle = LifecycleLog()
        let injector = try await InjectorActor(
            modules: [AppModule(config: AppConfig(), lifecycle: lifecycle)] + modules)
        var logger = Logger(label: "LinkShortenerTests")
        logger.logLevel = .error
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let application = try await LinkShortenerServer.makeApplication(
            injector: injector,
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            logger: logger,
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            }
        )
        let group = LinkShortenerServer.makeServiceGroup(
            injector: injector, application: wrap(application), logger: logger)
        let running = Task {
            defer { portContinuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            running.cancel()
            _ = await running.result
            throw DidNotStart()
        }
        return TestServer(port: port, injector: injector, lifecycle: lifecycle, group: group, running: running)
    }

    /// Runs `body` against a new server, then shuts the server down gracefully.
    static func with<T>(
        modules: [any Module] = [],
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        let server = try await start(modules: modules)
        let result: Result<T, any Error>
        do {
            result = .success(try await body(server))
        } catch {
            result = .failure(error)
        }
        try await server.stop()
        return try result.get()
    }

    /// Triggers a graceful shutdown and waits for the group to finish.
    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
    }

    /// Sends a request, with `Authorization: Bearer <user>` and `X-Request-ID` when given.
    func send(
        _ verb: Verb = .get,
        _ path: String,
        user: String? = nil,
        requestID: String? = nil,
        body: String? = nil
    ) async throws -> HTTPReply {
        var headers: [(String, String)] = []
        if let user { headers.append(("Authorization", "Bearer \(user)")) }
        if let requestID { headers.append(("X-Request-ID", requestID)) }
        return try await HTTPTestClient.send(verb, path, port: port, headers: headers, body: body)
    }

    /// Creates a link through the API and returns it.
    func createLink(_ url: String, user: String = "seeder") async throws -> LinkResponse {
        let reply = try await send(.post, "/links", user: user, body: #"{"url":"\#(url)"}"#)
        guard reply.status == 201 else { throw UnexpectedStatus(reply: reply) }
        return try reply.decode(LinkResponse.self)
    }

    /// The `/stats` body.
    func stats() async throws -> StatsResponse {
        try await send(.get, "/stats").decode(StatsResponse.self)
    }
}

struct UnexpectedStatus: Error, CustomStringConvertible {
    let reply: HTTPReply
    var description: String { "HTTP \(reply.status): \(reply.body)" }
}
