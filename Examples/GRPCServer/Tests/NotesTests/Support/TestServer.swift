import GRPCCore
import GRPCNIOTransportHTTP2
import Logging
import LoggingTestSupport
import NotesAPI
import Objection
import ObjectionGRPC
import ObjectionServiceLifecycle
import PostgresTestSupport
import ServiceLifecycle
import TestSupport

@testable import Notes

/// The service, assembled as `main.swift` assembles it, on the real database in a schema of its
/// own, listening on an ephemeral loopback port, with grpc-swift's client connected to it.
struct TestServer: Sendable {
    struct DidNotStart: Error {}

    let injector: InjectorActor
    let lifecycle: LifecycleLog
    /// What `InjectorService`, the service group, the injector's observer and the interceptor logged.
    let events: LogCapture
    /// The server's own schema; also its connections' `application_name`.
    let schema: String
    let group: ServiceGroup
    let running: Task<Void, any Error>
    /// The client, connected to the server over HTTP/2 on loopback.
    let notes: NotesClient<HTTP2ClientTransport.Posix>

    /// The pool size of a test server, unless a test needs more transactions at once.
    static let defaultMaximumConnections = 4

    /// Runs `body` against a new server and a client connected to it, then closes the client,
    /// shuts the server down gracefully (if `body` has not) and drops its schema.
    ///
    /// - Parameters:
    ///   - modules: Modules applied after `AppModule`: their bindings win.
    ///   - maximumConnections: The database client's pool size, opened at start-up: at most this
    ///     many transactions at once.
    ///   - interceptors: Run inside the scope interceptor, for the scoped service.
    ///   - wrap: Wraps the gRPC server's service in the service group.
    ///   - body: The test.
    static func with<T: Sendable>(
        modules: [any Module] = [],
        maximumConnections: Int = defaultMaximumConnections,
        interceptors: [any ServerInterceptor] = [],
        wrap: @Sendable (any Service) -> any Service = { $0 },
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        var settings = try TestDatabase.settings()
        // The pool, and one connection for the test's own.
        return try await TestDatabase.shared.withSchema(reservingConnections: maximumConnections + 1) { schema in
            settings.host = "127.0.0.1"
            settings.port = 0
            settings.database.schema = schema
            settings.database.applicationName = schema
            settings.database.maximumConnections = maximumConnections
            settings.database.minimumConnections = maximumConnections
            let lifecycle = LifecycleLog()
            let events = LogCapture()
            let injector = try await InjectorActor(
                modules: [AppModule(settings: settings, lifecycle: lifecycle, logger: quietLogger)] + modules,
                startup: .deferred,
                observer: LoggingObserver(logger: events.logger(label: "injector"))
            )
            let server = NotesServer.makeGRPCServer(
                injector: injector, settings: settings, logger: events.logger(label: "server"),
                interceptors: interceptors)
            let group = NotesServer.makeServiceGroup(
                injector: injector, serving: wrap(GRPCServerService(server)), settings: settings,
                logger: events.logger(label: "lifecycle"))
            let running = Task { try await group.run() }
            return try await withTeardown {
                // The start-up's end: the table exists from here on.
                _ = try await injector.get(NotesDatabase.self)
                guard let port = try await server.listeningAddress?.ipv4?.port else { throw DidNotStart() }
                return try await withGRPCClient(
                    transport: .http2NIOPosix(
                        target: .ipv4(address: "127.0.0.1", port: port), transportSecurity: .plaintext)
                ) { client in
                    try await body(
                        TestServer(
                            injector: injector, lifecycle: lifecycle, events: events, schema: schema, group: group,
                            running: running, notes: NotesClient(wrapping: client)))
                }
            } teardown: {
                await group.triggerGracefulShutdown()
                try await running.value
            }
        }
    }

    /// The server's logger for what it does not log to ``events``: quiet.
    static let quietLogger = Logger(label: "NotesTests") { _ in SwiftLogNoOpLogHandler() }

    /// Triggers a graceful shutdown, if none was, and waits for the group to finish.
    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
    }

    /// How many notes with the text `text` are committed, seen from a connection of the test's own.
    func committedNotes(text: String) async throws -> Int {
        try await TestDatabase.shared.withConnection(schema: schema) { try await $0.countNotes(text: text) }
    }
}
