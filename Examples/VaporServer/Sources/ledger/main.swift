import Configuration
import Ledger
import Logging
import Objection
import Vapor

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The ledger: `swift run ledger` serves on 127.0.0.1:8080 (`serve --port 9000`, `--hostname`, and
// `--log debug` as for any Vapor application). Its settings are read by the injector's providers
// from a swift-configuration `ConfigReader` over the environment: the database from POSTGRES_HOST,
// POSTGRES_PORT, POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB, as `.ci/postgres-start` prints
// them (its values are the defaults), the tables in the schema LEDGER_SCHEMA (`vapor_ledger`),
// timeouts from STARTUP_TIMEOUT_SECONDS and DRAIN_TIMEOUT_SECONDS; a malformed one stops the start
// with an error naming its key and the binding that needed it, never its value.
var environment = try Environment.detect()
try LoggingSystem.bootstrap(from: &environment)
let app = try await Application.make(environment)
let lifecycle = LifecycleLog()
let settings = ConfigReader(
    provider: EnvironmentVariablesProvider(secretsSpecifier: .specific(["POSTGRES_PASSWORD"]))
)
do {
    let injector = try await InjectorActor(
        modules: [AppModule(settings: settings, lifecycle: lifecycle, logger: app.logger)],
        // Built when the application boots (app.useInjector), once the pool runs.
        startup: .deferred
    )
    try await LedgerServer.configure(app, injector: injector)
    try await app.execute()
} catch {
    // A failed boot (no database, a foreign table, the deadline passed), once the singletons built
    // so far are disposed.
    app.logger.critical("Stopped on an error: \(LoggableError(error))")
    try? await app.asyncShutdown()
    exit(EXIT_FAILURE)
}
try await app.asyncShutdown()
app.logger.notice("Stopped. Singletons, in order: \(lifecycle.events.map(\.description).joined(separator: ", "))")
