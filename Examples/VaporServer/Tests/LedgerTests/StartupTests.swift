import Ledger
import Objection
import ObjectionVapor
import PostgresNIO
import PostgresTestSupport
import Testing
import Vapor

/// The injector starts when the application boots: the pool runs, the tables exist, before the
/// server accepts a request; a database that cannot be reached fails the boot.
@Suite("Start-up", .timeLimit(.minutes(2)))
struct StartupTests {
    @Test("Boot builds the singletons and creates the server's schema and tables")
    func bootCreatesTables() async throws {
        try await TestServer.with { server in
            #expect(Set(server.lifecycle.built) == [DatabaseClient.lifecycleName, Journal.lifecycleName])
            let tables = try await TestDatabase.shared.withConnection { connection in
                try await connection.query(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = \(server.schema)",
                    logger: TestDatabase.logger
                ).collect().map { try $0.decode(String.self) }
            }
            #expect(Set(tables) == ["accounts", "transfers"])
        }
    }

    @Test("A database that never answers fails the boot with timedOut naming LedgerDatabase; the pool is disposed")
    func unreachableDatabaseFailsBoot() async throws {
        let lifecycle = LifecycleLog()
        var database = TestServer.databaseConfig(schema: TestDatabase.shared.makeSchemaName(), maximumConnections: 1)
        // Port 1 on loopback: refused at once, again and again, as the pool retries.
        database.port = 1
        let injector = try await InjectorActor(
            modules: [
                AppModule(config: AppConfig(database: database), lifecycle: lifecycle, logger: TestServer.quietLogger)
            ],
            startup: .deferred
        )
        let app = try await Application.make(.testing, logger: TestServer.quietLogger)
        try await LedgerServer.configure(app, injector: injector, startupTimeout: .milliseconds(500))
        let error = await #expect(throws: InjectionError.self) { try await app.asyncBoot() }
        #expect(error?.code == .timedOut)
        #expect(error.map { "\($0)".contains("LedgerDatabase") } == true)
        try await app.asyncShutdown()
        #expect(lifecycle.disposed.contains(DatabaseClient.lifecycleName))
    }
}
