import GRPCCore
import GRPCNIOTransportHTTP2
import Logging
import Notes
import Objection
import ObjectionGRPC
import ObjectionServiceLifecycle
import ServiceLifecycle
import UnixSignals

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The notes server: `swift run notes-server [port]`, or PORT and HOST in the environment; the
// database from POSTGRES_HOST, POSTGRES_PORT, POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB, as
// `.ci/postgres-start` prints them (its values are the defaults), POSTGRES_SCHEMA and
// POSTGRES_MAX_CONNECTIONS; LOG_LEVEL for the log. SIGINT or SIGTERM stops it gracefully.
let environment = ProcessInfo.processInfo.environment
var logger = Logger(label: "notes-server")
logger.logLevel = environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .info

let settings: ServerSettings
do {
    settings = try ServerSettings(arguments: Array(CommandLine.arguments.dropFirst()), environment: environment)
} catch {
    logger.critical("Bad configuration: \(error)")
    exit(EXIT_FAILURE)
}

let lifecycle = LifecycleLog()
do {
    let injector = try await InjectorActor(
        modules: [AppModule(settings: settings, lifecycle: lifecycle, logger: logger)],
        // InjectorService builds the eager singletons once the database client runs.
        startup: .deferred,
        observer: LoggingObserver(logger: logger)
    )
    let server = NotesServer.makeGRPCServer(injector: injector, settings: settings, logger: logger)
    let group = NotesServer.makeServiceGroup(
        injector: injector, serving: GRPCServerService(server), settings: settings, logger: logger,
        gracefulShutdownSignals: [.sigterm, .sigint])
    try await withThrowingDiscardingTaskGroup { tasks in
        tasks.addTask { try await group.run() }
        if let address = try await server.listeningAddress {
            logger.notice("Notes server listening on \(address)")
        }
    }
} catch {
    // A failed start (no database, a foreign `notes` table, a deadline passed) or a service's
    // failure, once everything has been shut down.
    logger.critical("Stopped on an error: \(LoggableError(error))")
    exit(EXIT_FAILURE)
}
logger.notice("Stopped. Singletons, in order: \(lifecycle.events.map(\.description).joined(separator: ", "))")
