import Configuration
import Objection
import ObjectionConfiguration
import Testing

/// Settings read by providers from a `ConfigReader` over environment variables: a missing or
/// malformed one fails start-up naming its key and the binding path, never a value.
@Suite("Settings")
struct SettingTests {
    struct DatabaseConfig: Sendable {
        let host: String
        let port: Int
        let password: String
        let tls: Bool
    }

    /// A database client, built eagerly from its configuration.
    struct Database: Sendable {
        let config: DatabaseConfig
    }

    struct DatabaseModule: Module {
        func configure(_ binder: Binder) {
            binder.bind(DatabaseConfig.self).to { r in
                DatabaseConfig(
                    host: try await r.setting("database.host"),
                    port: try await r.setting("database.port", default: 5432),
                    password: try await r.setting("database.password", isSecret: true),
                    tls: try await r.setting("database.tls", default: false)
                )
            }.asSingleton()
            binder.bind(Database.self).to { r in Database(config: try await r.get(DatabaseConfig.self)) }
                .asEagerSingleton()
        }
    }

    private func injector(environment: [String: String], startup: Startup = .immediate) async throws -> InjectorActor {
        let reader = ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment))
        return try await InjectorActor(modules: [ConfigurationModule(reader), DatabaseModule()], startup: startup)
    }

    @Test("settings from the environment, defaults where missing")
    func reads() async throws {
        let injector = try await injector(environment: [
            "DATABASE_HOST": "db.internal", "DATABASE_PASSWORD": "hunter2", "DATABASE_TLS": "true",
        ])
        let config = try await injector.get(Database.self).config
        #expect(config.host == "db.internal")
        #expect(config.port == 5432)
        #expect(config.password == "hunter2")
        #expect(config.tls)
        await injector.shutdown()
    }

    @Test("a missing required setting fails start-up naming the key and the binding path")
    func missing() async throws {
        let error = await #expect(throws: InjectionError.self) {
            try await injector(environment: ["DATABASE_PASSWORD": "hunter2"])
        }
        #expect(error?.code == .invalidSetting)
        #expect(
            error?.message == "Missing configuration setting 'database.host' (required by Database -> DatabaseConfig)"
        )
        #expect(error?.path == [BindingKey(Database.self), BindingKey(DatabaseConfig.self)])
    }

    @Test("a malformed setting fails start-up naming the key and the type, never the value or a secret")
    func malformed() async throws {
        let error = await #expect(throws: InjectionError.self) {
            try await injector(environment: [
                "DATABASE_HOST": "db", "DATABASE_PORT": "54x32", "DATABASE_PASSWORD": "hunter2",
            ])
        }
        #expect(error?.code == .invalidSetting)
        #expect(
            error?.message
                == "Configuration setting 'database.port' is not a valid Int (required by Database -> DatabaseConfig)"
        )
        let text = String(describing: error)
        #expect(!text.contains("54x32"))
        #expect(!text.contains("hunter2"))
    }

    @Test("a deferred start fails with the same error; the injector is not ready")
    func deferred() async throws {
        let injector = try await injector(environment: [:], startup: .deferred)
        let error = await #expect(throws: InjectionError.self) { try await injector.start() }
        #expect(error?.code == .invalidSetting)
        #expect(error?.message.contains("'database.host'") == true)
        #expect(await !injector.health(within: .seconds(1)).isReady)
        await injector.shutdown()
    }

    @Test("no ConfigReader bound: the missing binding, not a setting")
    func unbound() async throws {
        let injector = try await InjectorActor(modules: [
            TestModule { binder in
                binder.bind(Int.self).to { r in try await r.setting("http.port") }
            }
        ])
        let error = await #expect(throws: InjectionError.self) { try await injector.get(Int.self) }
        #expect(error?.code == .missingBinding)
    }

    struct TestModule: Module {
        let body: @Sendable (Binder) -> Void
        init(_ body: @escaping @Sendable (Binder) -> Void) { self.body = body }
        func configure(_ binder: Binder) { body(binder) }
    }
}
