import Hummingbird
import LinkShortener
import Logging
import Objection
import ServiceLifecycle
import UnixSignals

// The URL shortener: `swift run link-shortener [port]`, or PORT and HOST in the environment.
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
let injector = try await InjectorActor(modules: [AppModule(config: AppConfig(), lifecycle: lifecycle)])
let application = try await LinkShortenerServer.makeApplication(
    injector: injector,
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
try await group.run()
logger.notice("Stopped. Singletons, in order: \(lifecycle.events.map(\.description).joined(separator: ", "))")
