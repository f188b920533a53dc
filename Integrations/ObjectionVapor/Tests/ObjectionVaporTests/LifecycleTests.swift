import LoggingTestSupport
import Objection
import ObjectionVapor
import TestSupport
import Testing
import Vapor

/// The application's injector in Vapor's lifecycle: started at boot, shut down at shutdown.
@Suite("Lifecycle", .timeLimit(.minutes(1)))
struct LifecycleTests {
    /// A service that a provider of Vapor's would start at boot, before the injector's start-up.
    struct ServiceStarter: LifecycleHandler {
        let events: EventLog

        func didBootAsync(_ application: Application) async throws {
            events.record("service running")
        }
    }

    @Test("A deferred injector starts at boot, after the services registered before it")
    func deferredStart() async throws {
        let events = EventLog()
        let injector = try await InjectorActor(modules: [SingletonModule(events: events)], startup: .deferred)
        try await withTestApp { app in
            #expect(app.injector == nil)
            app.lifecycle.use(ServiceStarter(events: events))
            app.useInjector(injector)
            #expect(app.injector === injector)
            #expect(events.all.isEmpty)
            try await app.asyncBoot()
            #expect(events.all == ["service running", "built Pool", "built Cache"])
        }
        #expect(events.all.suffix(2) == ["disposed Cache", "disposed Pool"])
    }

    @Test("Shutdown disposes the singletons in reverse order of construction")
    func shutdownDisposes() async throws {
        let events = EventLog()
        let injector = try await InjectorActor(modules: [SingletonModule(events: events)])
        try await withTestApp { app in
            app.useInjector(injector)
            try await app.asyncBoot()
            #expect(events.all == ["built Pool", "built Cache"])
        }
        #expect(events.all == ["built Pool", "built Cache", "disposed Cache", "disposed Pool"])
        await #expect(throws: InjectionError(code: .shutDown, message: "")) {
            _ = try await injector.get(Recorded<Pool>.self)
        }
    }

    @Test("A start-up that fails fails the boot with the provider's error")
    func startupFailure() async throws {
        let injector = try await InjectorActor(modules: [BrokenModule()], startup: .deferred)
        try await withTestApp { app in
            app.useInjector(injector)
            await #expect(throws: BrokenModule.ConnectionRefused.self) {
                try await app.asyncBoot()
            }
        }
    }

    @Test("A start-up failure whose error carries a password fails the boot with it, and reaches no log line")
    func startupFailureKeepsItsSecret() async throws {
        struct SecretModule: Module {
            func configure(_ binder: Binder) {
                binder.bind(UnreachableDatabase.self).to { _ in throw ConnectionRefused() }.asEagerSingleton()
            }
        }
        let logs = LogCapture()
        let injector = try await InjectorActor(modules: [SecretModule()], startup: .deferred)
        try await withTestApp(logs: logs) { app in
            app.useInjector(injector)
            await #expect(throws: ConnectionRefused.self) { try await app.asyncBoot() }
        }
        // The group that runs the injector's service logged the failure, by type.
        #expect(logs.all.contains { "\($0)".contains("ConnectionRefused") })
        let leaked = logs.all.filter { "\($0)".contains("Tr0ub4dor") }
        #expect(leaked.isEmpty, "\(leaked)")
    }

    @Test("A start-up past its deadline fails the boot with a timed-out InjectionError")
    func startupTimeout() async throws {
        struct NeverReady: Module {
            func configure(_ binder: Binder) {
                binder.bind(Recorded<Self>.self)
                    .to { _ in
                        // A construction that never finishes by itself; start-up cancels it.
                        try await Task.sleep(for: .seconds(3_600))
                        return Recorded(events: EventLog())
                    }
                    .asEagerSingleton()
            }
        }
        let injector = try await InjectorActor(modules: [NeverReady()], startup: .deferred)
        try await withTestApp { app in
            app.useInjector(injector, startupTimeout: .milliseconds(50))
            let error = try await #require(throws: InjectionError.self) {
                try await app.asyncBoot()
            }
            #expect(error.code == .timedOut)
        }
    }

    @Test("A second injector replaces the first, with a warning")
    func replaced() async throws {
        let logs = LogCapture()
        let events = EventLog()
        let first = try await InjectorActor(modules: [], startup: .deferred)
        let second = try await InjectorActor(modules: [SingletonModule(events: events)], startup: .deferred)
        try await withTestApp(logs: logs) { app in
            app.useInjector(first)
            app.useInjector(second)
            #expect(app.injector === second)
            try await app.asyncBoot()
            #expect(events.all == ["built Pool", "built Cache"])
        }
        #expect(events.all.suffix(2) == ["disposed Cache", "disposed Pool"])
        #expect(logs.entries(at: .warning).contains { $0.message.hasPrefix("useInjector called again") })
    }
}
