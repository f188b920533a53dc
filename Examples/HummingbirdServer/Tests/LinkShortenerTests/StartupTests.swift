import LinkShortener
import LoggingTestSupport
import Objection
import PostgresNIO
import PostgresTestSupport
import Testing

/// The database client runs before the singletons that query it are built.
@Suite("Start-up", .timeLimit(.minutes(2)))
struct StartupTests {
    @Test("InjectorService runs the client, then builds the schema singleton, which creates the table")
    func schemaBuiltOnceTheClientRuns() async throws {
        try await TestServer.with { server in
            let tables = try await TestDatabase.shared.withConnection { connection in
                let rows = try await connection.query(
                    """
                    SELECT count(*) FROM information_schema.tables
                    WHERE table_schema = \(server.schema) AND table_name = 'links'
                    """,
                    logger: TestDatabase.logger
                ).collect()
                return try rows.first?.decode(Int.self)
            }
            #expect(tables == 1)
            let events = server.events
            let clientBuilt = try #require(events.firstIndex(of: "Built instance", with: "PostgresClient"))
            let databaseBuilt = try #require(events.firstIndex(of: "Built instance", with: "LinkDatabase"))
            let started = try #require(events.firstIndex(of: "Injector started"))
            #expect(clientBuilt < databaseBuilt)
            #expect(databaseBuilt < started)
        }
    }

    @Test("Built while the injector is created, the schema singleton waits for a run() nothing calls")
    func immediateStartupWaitsForever() async throws {
        let lifecycle = LifecycleLog()
        let error = await #expect(throws: InjectionError.self) {
            _ = try await InjectorActor(
                modules: [
                    AppModule(
                        config: AppConfig(database: TestDatabase.config), lifecycle: lifecycle,
                        logger: TestServer.serverLogger)
                ],
                startup: .immediate(within: .milliseconds(500))
            )
        }
        #expect(error?.code == .timedOut)
        #expect(error.map { "\($0)".contains("LinkDatabase") } == true)
        // What was built is disposed: the client, never run.
        #expect(lifecycle.disposed.contains(LifecycleLog.postgresClient))
    }
}
