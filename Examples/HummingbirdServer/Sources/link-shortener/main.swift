import Hummingbird
import LinkShortener
import Logging
import Objection
import ObjectionServiceLifecycle
import ServiceLifecycle
import UnixSignals

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The URL shortener: `swift run link-shortener [port]`, or PORT and HOST in the environment; the
// database from POSTGRES_HOST, POSTGRES_PORT, POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB, as
// `.ci/postgres-start` prints them (its values are the defaults).
let environment = Environment()
let host = environment.get("HOST") ?? "127.0.0.1"
let port =
    CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? environment.get("PORT").flatMap { Int($0) } ?? 8080
let logger = {
    var logger = Logger(label: "link-shortener")
    logger.logLevel = environment.get("LOG_LEVEL").flatMap { Logger.Level(rawValue: $0) } ?? .info
    return logger
}()

let lifecycle = LifecycleLog()
// Spans in process (the start-up logged as a tree, `GET /traces`) and metrics (`GET /metrics`).
let observability = Observability(logger: logger)
let injector = try await InjectorActor(
    modules: [
        AppModule(
            config: AppConfig(database: DatabaseConfig(environment: environment)), lifecycle: lifecycle, logger: logger)
    ],
    // InjectorService builds the eager singletons once the database client runs.
    startup: .deferred,
    observer: observability.observer(alongside: LoggingObserver(logger: logger))
)
let application = try await LinkShortenerServer.makeApplication(
    injector: injector,
    observability: observability,
    configuration: ApplicationConfiguration(address: .hostname(host, port: port)),
    logger: logger,
    onServerRunning: { channel in
        logger.notice("Link shortener listening on http://\(host):\(channel.localAddress?.port ?? port)")
    }
)
let group = LinkShortenerServer.makeServiceGroup(
    injector: injector,
    application: application,
    logger: logger,
    gracefulShutdownSignals: [.sigterm, .sigint]
)
do {
    try await group.run()
} catch {
    // A failed start (no database, a foreign `links` table, a deadline passed) or a service's
    // failure, once everything has been shut down.
    logger.critical("Stopped on an error: \(String(reflecting: error))")
    exit(EXIT_FAILURE)
}
logger.notice("Stopped. Singletons, in order: \(lifecycle.events.map(\.description).joined(separator: ", "))")
