import AsyncHTTPClient
import Ledger
import Logging
import LoggingTestSupport
import NIOCore
import NIOHTTP1
import Objection
import PostgresTestSupport
import TestSupport
import Vapor

/// The service, configured as `main.swift` configures it, on the real database in a schema of
/// its own, listening on an ephemeral loopback port; and an HTTP client to talk to it.
struct TestServer: Sendable {
    struct DidNotStart: Error {}

    let app: Application
    let port: Int
    let injector: InjectorActor
    let lifecycle: LifecycleLog
    /// What the application (Vapor, ObjectionVapor, the routes) logged, from `debug` up.
    let logs: LogCapture
    /// The server's own schema; also its connections' `application_name`.
    let schema: String
    let client: HTTPClient

    /// The pool size of a test server, unless a test needs more transactions at once.
    static let defaultMaximumConnections = 6

    /// Runs `body` against a new server, then shuts the server down (if `body` has not) and drops
    /// its schema.
    ///
    /// - Parameters:
    ///   - modules: Modules applied after `AppModule`: their bindings win.
    ///   - maximumConnections: The pool's size: at most this many transactions at once. Above the
    ///     default, the pool opens them all at start-up (see ``DatabaseConfig/minimumConnections``):
    ///     the test means to hold that many open together.
    ///   - body: The test.
    static func with<T>(
        modules: [any Module] = [],
        maximumConnections: Int = defaultMaximumConnections,
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        // The pool, and one connection for the test's own. The server's `LedgerDatabase` creates
        // the schema.
        try await TestDatabase.shared.withSchema(
            reservingConnections: maximumConnections + 1, creatingSchema: false
        ) { schema in
            let server = try await start(schema: schema, modules: modules, maximumConnections: maximumConnections)
            return try await withTeardown {
                try await body(server)
            } teardown: {
                try await server.stop()
            }
        }
    }

    /// The configuration of a test server's database: the tests' database, in `schema`.
    static func databaseConfig(schema: String, maximumConnections: Int) -> DatabaseConfig {
        var database = TestDatabase.config
        database.schema = schema
        database.applicationName = schema
        database.maximumConnections = maximumConnections
        if maximumConnections > defaultMaximumConnections { database.minimumConnections = maximumConnections }
        return database
    }

    private static func start(schema: String, modules: [any Module], maximumConnections: Int) async throws
        -> TestServer
    {
        let lifecycle = LifecycleLog()
        let logs = LogCapture()
        let config = AppConfig(
            database: databaseConfig(schema: schema, maximumConnections: maximumConnections))
        let injector = try await InjectorActor(
            modules: [AppModule(config: config, lifecycle: lifecycle, logger: quietLogger)] + modules,
            startup: .deferred
        )
        let app = try await Application.make(.testing, logger: logs.logger(label: "ledger-tests", level: .debug))
        do {
            try await LedgerServer.configure(app, injector: injector)
            let port = try await app.startOnEphemeralPort()
            return TestServer(
                app: app, port: port, injector: injector, lifecycle: lifecycle, logs: logs, schema: schema,
                client: makeClient())
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }

    /// The database pool's logger: quiet, unless `TEST_LOG_LEVEL` says otherwise.
    static let quietLogger = {
        var logger = Logger(label: "ledger-tests-pool")
        logger.logLevel = Environment.get("TEST_LOG_LEVEL").flatMap { Logger.Level(rawValue: $0) } ?? .critical
        return logger
    }()

    /// An HTTP/1.1 client over loopback sockets, with enough connections for a test's requests
    /// to be in flight all at once.
    private static func makeClient() -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 128)
        return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }

    /// Shuts the application down (the server, then the injector), if it is not already, and the
    /// client.
    func stop() async throws {
        try await client.shutdown()
        if !app.didShutdown { try await app.asyncShutdown() }
    }

    /// Sends a request, with `Authorization: Bearer <teller>` and `X-Request-Id` when given, and a
    /// JSON body when given.
    func send(
        _ method: HTTPMethod = .GET,
        _ path: String,
        teller: String? = nil,
        requestID: String? = nil,
        json: String? = nil
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        if let teller { request.headers.add(name: "Authorization", value: "Bearer \(teller)") }
        if let requestID { request.headers.add(name: "X-Request-Id", value: requestID) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
        }
        let response = try await client.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 1 << 20)
        return Reply(status: response.status, headers: response.headers, body: String(buffer: body))
    }
}

extension Application {
    /// Boots the application (the injector starts: the pool runs, the tables exist) and starts
    /// its HTTP server on an ephemeral loopback port, which it returns.
    func startOnEphemeralPort() async throws -> Int {
        http.server.configuration.hostname = "127.0.0.1"
        http.server.configuration.port = 0
        try await asyncBoot()
        try await server.start(address: nil)
        guard let port = http.server.shared.localAddress?.port else { throw TestServer.DidNotStart() }
        return port
    }
}
