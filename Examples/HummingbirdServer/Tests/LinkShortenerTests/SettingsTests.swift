import Configuration
import LinkShortener
import Objection
import Testing

/// The server's settings, read by the providers from a `ConfigReader` over the environment.
@Suite("Settings", .timeLimit(.minutes(1)))
struct SettingsTests {
    private func injector(environment: [String: String]) async throws -> InjectorActor {
        let reader = ConfigReader(
            provider: EnvironmentVariablesProvider(
                environmentVariables: environment, secretsSpecifier: .specific(["POSTGRES_PASSWORD"]))
        )
        return try await InjectorActor(
            modules: [AppModule(settings: reader, lifecycle: LifecycleLog(), logger: TestServer.serverLogger)],
            startup: .deferred
        )
    }

    @Test("the environment over the defaults")
    func environmentOverDefaults() async throws {
        let injector = try await injector(environment: [
            "POSTGRES_HOST": "db.internal", "POSTGRES_PASSWORD": "hunter2", "LINK_CODE_LENGTH": "9",
            "DRAIN_TIMEOUT_SECONDS": "2.5",
        ])
        let config = try await injector.get(AppConfig.self)
        #expect(config.database.host == "db.internal")
        #expect(config.database.password == "hunter2")
        #expect(config.database.port == 54_329)
        #expect(config.codeLength == 9)
        #expect(config.drainTimeout == .milliseconds(2_500))
        await injector.shutdown()
    }

    @Test("a malformed setting fails the start naming its key and the binding path, never a value")
    func malformedSettingFailsStart() async throws {
        let injector = try await injector(environment: ["POSTGRES_PORT": "54x32", "POSTGRES_PASSWORD": "hunter2"])
        let error = await #expect(throws: InjectionError.self) { try await injector.start() }
        #expect(error?.code == .invalidSetting)
        #expect(
            error?.message
                == "Configuration setting 'postgres.port' is not a valid Int "
                + "(required by LinkDatabase -> PostgresClient -> AppConfig)"
        )
        #expect(!"\(String(describing: error))".contains("54x32"))
        #expect(!"\(String(describing: error))".contains("hunter2"))
        await injector.shutdown()
    }
}
