import Configuration
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

// The URL shortener: `swift run link-shortener [port]`, or PORT and HOST in the environment. Every
// other setting is read by the injector's providers from a swift-configuration `ConfigReader` over
// the environment — the database from POSTGRES_HOST, POSTGRES_PORT, POSTGRES_USER, POSTGRES_PASSWORD
// and POSTGRES_DB, as `.ci/postgres-start` prints them (its values are the defaults), timeouts from
// STARTUP_TIMEOUT_SECONDS and DRAIN_TIMEOUT_SECONDS — and a malformed one stops the start with an
// error that names its key and the binding that needed it, never its value.
let settings = ConfigReader(
    provider: EnvironmentVariablesProvider(secretsSpecifier: .specific(["POSTGRES_PASSWORD"]))
)
let host = settings.string(forKey: "host", default: "127.0.0.1")
let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? settings.int(forKey: "port", default: 8080)
let logger = {
    var logger = Logger(label: "link-shortener")
    logger.logLevel = settings.string(forKey: "log.level").flatMap { Logger.Level(rawValue: $0) } ?? .info
    return logger
}()

let lifecycle = LifecycleLog()
// Spans in process (the start-up logged as a tree, `GET /traces`) and metrics (`GET /metrics`), for
// the framework's tracing and metrics middleware and for the injector's observers.
let observability = Observability(logger: logger)
observability.bootstrapSystems()
// OBJECTION_OBSERVERS=failures leaves the injector's tracing and metrics observers out, keeping the
// log of failures: loadtest.sh runs the server both ways to measure what they cost.
let failureLog = LoggingObserver(logger: logger)
let observer: any InjectionObserver =
    settings.string(forKey: "objection.observers", default: "all") == "failures"
    ? failureLog : observability.observer(alongside: failureLog)
let injector = try await InjectorActor(
    modules: [AppModule(settings: settings, lifecycle: lifecycle, logger: logger)],
    // InjectorService builds the eager singletons once the database client runs.
    startup: .deferred,
    observer: observer
)
let config: AppConfig
do {
    config = try await injector.get(AppConfig.self)
} catch {
    logger.critical("Bad configuration: \(error)")
    await injector.shutdown()
    exit(1)
}
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
    startupTimeout: config.startupTimeout,
    drainTimeout: config.drainTimeout,
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
