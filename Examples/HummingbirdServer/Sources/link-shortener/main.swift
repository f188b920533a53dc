import Configuration
import Hummingbird
import LinkShortener
import Logging
import Objection
import ObjectionConfiguration
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
let environment = EnvironmentVariablesProvider(secretsSpecifier: .specific(["POSTGRES_PASSWORD"]))
// SETTINGS_FILE: a JSON file of settings below the environment, reloaded while the server runs
// (a mounted ConfigMap): `link.quota`, which `LinkQuota` reads, changes without a restart.
let bootstrap = ConfigReader(provider: environment)
var settingsFile: ReloadingFileProvider<JSONSnapshot>?
if let path = bootstrap.string(forKey: "settings.file") {
    let poll = bootstrap.int(forKey: "settings.poll.seconds", default: 5)
    settingsFile = try await ReloadingFileProvider<JSONSnapshot>(
        config: ConfigReader(
            provider: InMemoryProvider(values: [
                "filePath": ConfigValue(.string(path), isSecret: false),
                "pollIntervalSeconds": ConfigValue(.int(poll), isSecret: false),
            ])))
}
let settings = ConfigReader(providers: [environment] + (settingsFile.map { [$0] } ?? []))
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
// OBJECTION_OBSERVERS chooses the injector's observers besides the log of failures: `all` (the
// default: tracing and metrics), `tracing`, `metrics` or `failures` (neither); loadtest.sh runs the
// server each way to measure what they cost. OBJECTION_TRACING_MINIMUM_MICROSECONDS (100 by
// default; 0 keeps every span) leaves quicker constructions without a span unless they failed or
// something below them was kept: a request's scoped values take a few microseconds each.
let failureLog = LoggingObserver(logger: logger)
let tracingMinimum = Duration.microseconds(
    max(0, settings.int(forKey: "objection.tracing.minimum.microseconds", default: 100)))
let observer: any InjectionObserver =
    switch settings.string(forKey: "objection.observers", default: "all") {
    case "failures": failureLog
    case "tracing": observability.observer(alongside: failureLog, tracingAtLeast: tracingMinimum, metrics: false)
    case "metrics": observability.observer(alongside: failureLog, tracing: false)
    default: observability.observer(alongside: failureLog, tracingAtLeast: tracingMinimum)
    }
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
    logger.critical("Bad configuration: \(LoggableError(error))")
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
    gracefulShutdownSignals: [.sigterm, .sigint],
    services: settingsFile.map { [$0, ConfigurationRefresher(injector: injector, reader: settings)] } ?? []
)
do {
    try await group.run()
} catch {
    // A failed start (no database, a foreign `links` table, a deadline passed) or a service's
    // failure, once everything has been shut down.
    logger.critical("Stopped on an error: \(LoggableError(error))")
    exit(EXIT_FAILURE)
}
logger.notice("Stopped. Singletons, in order: \(lifecycle.events.map(\.description).joined(separator: ", "))")
