import Configuration
import Ledger
import Logging
import Objection
import Testing

/// The ledger's settings, read by the providers from a `ConfigReader` over the environment.
@Suite("Settings", .timeLimit(.minutes(1)))
struct SettingsTests {
    private func injector(environment: [String: String]) async throws -> InjectorActor {
        let reader = ConfigReader(
            provider: EnvironmentVariablesProvider(
                environmentVariables: environment, secretsSpecifier: .specific(["POSTGRES_PASSWORD"]))
        )
        var logger = Logger(label: "ledger-settings-tests")
        logger.logLevel = .critical
        return try await InjectorActor(
            modules: [AppModule(settings: reader, lifecycle: LifecycleLog(), logger: logger)],
            startup: .deferred
        )
    }

    @Test("the environment over the defaults")
    func environmentOverDefaults() async throws {
        let injector = try await injector(environment: [
            "POSTGRES_HOST": "db.internal", "POSTGRES_PASSWORD": "hunter2", "LEDGER_SCHEMA": "books",
            "DRAIN_TIMEOUT_SECONDS": "2.5",
        ])
        let config = try await injector.get(AppConfig.self)
        #expect(config.database.host == "db.internal")
        #expect(config.database.password == "hunter2")
        #expect(config.database.schema == "books")
        #expect(config.database.port == 54_329)
        #expect(config.drainTimeout == .milliseconds(2_500))
        await injector.shutdown()
    }

    @Test("a malformed setting fails the start naming its key and the binding path, never a value")
    func malformedSettingFailsStart() async throws {
        let injector = try await injector(environment: [
            "POSTGRES_MAX_CONNECTIONS": "lots", "POSTGRES_PASSWORD": "hunter2",
        ])
        let error = await #expect(throws: InjectionError.self) { try await injector.start() }
        #expect(error?.code == .invalidSetting)
        #expect(error?.message.hasPrefix("Configuration setting 'postgres.max.connections' is not a valid Int") == true)
        #expect(error?.path.last == BindingKey(AppConfig.self))
        #expect(!"\(String(describing: error))".contains("lots"))
        #expect(!"\(String(describing: error))".contains("hunter2"))
        await injector.shutdown()
    }
}
