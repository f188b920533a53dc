import Configuration
import Hummingbird
import LinkShortener
import Logging
import LoggingTestSupport
import Objection
import ObjectionConfiguration
import ObjectionServiceLifecycle
import PostgresTestSupport
import ServiceLifecycle
import TestSupport

/// The service, assembled as `main.swift` assembles it, on the real database in a schema of its
/// own, listening on an ephemeral loopback port.
struct TestServer: Sendable {
    struct DidNotStart: Error {}

    let port: Int
    let injector: InjectorActor
    let lifecycle: LifecycleLog
    /// What `InjectorService`, the service groups and the injector's observer logged.
    let events: LogCapture
    /// The injector's spans and metrics, as `/traces` and `/metrics` serve them.
    let observability: Observability
    /// What the tracer logged: the start-up's tree.
    let tracing: LogCapture
    /// The server's own schema; also its connections' `application_name`.
    let schema: String
    let group: ServiceGroup
    let running: Task<Void, any Error>

    /// The pool size of a test server, unless a test needs more transactions at once.
    static let defaultMaximumConnections = 8

    /// Runs `body` against a new server, then shuts the server down gracefully (if `body` has not)
    /// and drops its schema.
    ///
    /// - Parameters:
    ///   - modules: Modules applied after `AppModule`: their bindings win.
    ///   - maximumConnections: The database client's pool size: at most this many transactions at
    ///     once. Above the default, the pool opens them all at start-up (see
    ///     ``DatabaseConfig/minimumConnections``): the test means to hold that many open together.
    ///   - wrap: Wraps the application in the service group, given the server's log, ``events``.
    ///   - body: The test.
    static func with<T>(
        modules: [any Module] = [],
        maximumConnections: Int = defaultMaximumConnections,
        wrap: @Sendable (any Service, LogCapture) -> any Service = { service, _ in service },
        refreshing: (reader: ConfigReader, provider: any Service)? = nil,
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        // The pool, and one connection for the test's own.
        try await TestDatabase.shared.withSchema(reservingConnections: maximumConnections + 1) { schema in
            let server = try await start(
                schema: schema, modules: modules, maximumConnections: maximumConnections, wrap: wrap,
                refreshing: refreshing)
            return try await withTeardown {
                try await body(server)
            } teardown: {
                try await server.stop()
            }
        }
    }

    private static func start(
        schema: String,
        modules: [any Module],
        maximumConnections: Int,
        wrap: @Sendable (any Service, LogCapture) -> any Service,
        refreshing: (reader: ConfigReader, provider: any Service)?
    ) async throws -> TestServer {
        let lifecycle = LifecycleLog()
        let events = LogCapture()
        let tracing = LogCapture()
        let observability = Observability(logger: tracing.logger(label: "tracing"))
        var database = TestDatabase.config
        database.schema = schema
        database.applicationName = schema
        database.maximumConnections = maximumConnections
        if maximumConnections > defaultMaximumConnections { database.minimumConnections = maximumConnections }
        let injector = try await InjectorActor(
            modules: [
                refreshing.map {
                    AppModule(
                        config: AppConfig(database: database), lifecycle: lifecycle, logger: serverLogger,
                        refreshable: $0.reader)
                } ?? AppModule(config: AppConfig(database: database), lifecycle: lifecycle, logger: serverLogger)
            ] + modules,
            startup: .deferred,
            observer: observability.observer(alongside: LoggingObserver(logger: events.logger(label: "injector")))
        )
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let application = try await LinkShortenerServer.makeApplication(
            injector: injector,
            observability: observability,
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            logger: serverLogger,
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            }
        )
        let group = LinkShortenerServer.makeServiceGroup(
            injector: injector,
            application: wrap(application, events),
            logger: events.logger(label: "lifecycle"),
            services: refreshing.map { [$0.provider, ConfigurationRefresher(injector: injector, reader: $0.reader)] }
                ?? []
        )
        let running = Task {
            defer { portContinuation.finish() }
            try await group.run()
        }
        let server = TestServer(
            port: 0, injector: injector, lifecycle: lifecycle, events: events, observability: observability,
            tracing: tracing, schema: schema, group: group, running: running)
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            try await server.stop()
            throw DidNotStart()
        }
        do {
            // The start-up's end, before anything asks the injector for anything: a `get` of
            // LinkDatabase now could start building it before the start-up does, outside the
            // start-up's trace. Then LinkDatabase, built by the start-up (or its error): the table
            // exists from here on.
            _ = await observability.tracer.startup()
            _ = try await injector.get(LinkDatabase.self)
        } catch {
            try? await server.stop()
            throw error
        }
        return TestServer(
            port: port, injector: injector, lifecycle: lifecycle, events: events, observability: observability,
            tracing: tracing, schema: schema, group: group, running: running)
    }

    /// The server's logger: quiet, unless `TEST_LOG_LEVEL` says otherwise; some tests make it
    /// answer `500`, which it logs as an error.
    static let serverLogger = {
        var logger = Logger(label: "LinkShortenerTests")
        logger.logLevel = Environment().get("TEST_LOG_LEVEL").flatMap { Logger.Level(rawValue: $0) } ?? .critical
        return logger
    }()

    /// Triggers a graceful shutdown, if none was, and waits for the group to finish.
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
        let reply = try await send(.post, "/links", user: user, body: try CreateLinkRequest(url: url).json())
        guard reply.status == 201 else { throw UnexpectedStatus(reply: reply) }
        return try reply.decode(LinkResponse.self)
    }

    /// The `/stats` body.
    func stats() async throws -> StatsResponse {
        try await send(.get, "/stats").decode(StatsResponse.self)
    }

    /// How many links whose URL starts with `prefix` are committed, seen from a connection of the
    /// test's own.
    func committedLinks(urlPrefix prefix: String) async throws -> Int {
        try await TestDatabase.shared.withConnection(schema: schema) { try await $0.countLinks(urlPrefix: prefix) }
    }
}

struct UnexpectedStatus: Error, CustomStringConvertible {
    let reply: HTTPReply
    var description: String { "HTTP \(reply.status): \(reply.body)" }
}
