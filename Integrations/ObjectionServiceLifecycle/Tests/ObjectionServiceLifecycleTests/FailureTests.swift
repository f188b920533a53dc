import Logging
import LoggingTestSupport
import Objection
import ObjectionServiceLifecycle
import ServiceLifecycle
import TestSupport
import Testing

/// Whatever ends `InjectorService.run()`, it ends the services and shuts the injector down first,
/// then throws the first failure.
@Suite(.timeLimit(.minutes(1))) struct FailureTests {
    @Test func aServiceThatThrowsEndsTheOthersAndDisposesBeforeRunThrows() async throws {
        let log = EventLog()
        let injector = try await InjectorActor(modules: [ThrowingServiceModule(log: log)], startup: .deferred)
        let service = InjectorService(injector, logger: quietLogger)

        await #expect(throws: SecretError.self) { try await service.run() }

        #expect(log.all.filter { $0.hasSuffix("ended") || $0.hasSuffix("disposed") } == ["steady ended"])
        await #expect(throws: InjectionError(code: .shutDown, message: "")) {
            try await injector.get(NamedService.self, named: "steady")
        }
    }

    @Test func aDisposalFailureIsThrownAfterGracefulShutdown() async throws {
        let injector = try await InjectorActor(modules: [FailingDisposalModule()], startup: .deferred)
        let service = InjectorService(injector, logger: quietLogger)
        let group = ServiceGroup(services: [service], logger: quietLogger)

        let error = await #expect(throws: InjectionError.self) {
            try await whileRunning(group) { _ = try await injector.get(FakeServer.self) }
        }

        #expect(error?.code == .disposalFailed)
    }

    @Test func aDisposalFailureAfterAFailedStartIsLoggedAndTheStartFailureThrown() async throws {
        let capture = LogCapture()
        let injector = try await InjectorActor(modules: [FailingStartModule()], startup: .deferred)
        let service = InjectorService(injector, logger: capture.logger())

        await #expect(throws: SecretError.self) { try await service.run() }

        let logged = capture.entries(at: .error)
        #expect(logged.map(\.message) == ["Disposing the injector's singletons failed"])
        #expect(logged.first?.metadata["objection.error"]?.description.contains("'FakeServer'") == true)
        #expect(!capture.all.contains { "\($0.message) \($0.metadata)".contains("hunter2") })
    }

    @Test func aServiceErrorsDescriptionReachesNoLineOfTheInjectorServicesLogger() async throws {
        let capture = LogCapture()
        let injector = try await InjectorActor(modules: [ThrowingServiceModule(log: EventLog())], startup: .deferred)
        // At `debug`, the level that shows the service's steps, and the inner group's lines.
        let service = InjectorService(injector, logger: capture.logger(level: .debug))

        await #expect(throws: SecretError.self) { try await service.run() }

        #expect(capture.all.contains { $0.message.contains("Service threw error") })
        #expect(!capture.all.contains { "\($0.message) \($0.metadata)".contains("hunter2") })
    }
}
