import Objection
import ObjectionServiceLifecycle
import ServiceLifecycle
import TestSupport
import Testing

/// `InjectorService`'s description names the services by type and the stage, never a value.
@Suite(.timeLimit(.minutes(1))) struct DescriptionTests {
    @Test func beforeRunItNamesTheStage() async throws {
        let fixture = try await Fixture(stage: .production)

        let service = InjectorService(fixture.injector, logger: quietLogger)

        #expect(service.description == "InjectorService(stage: production)")
    }

    @Test func onceRunningItNamesTheServicesByType() async throws {
        let fixture = try await Fixture()
        let service = InjectorService(fixture.injector, logger: quietLogger)
        let group = ServiceGroup(services: [service], logger: quietLogger)

        let description = try await whileRunning(group) {
            try await fixture.repositoryBuilt.wait()
            return service.description
        }

        #expect(description == "InjectorService(services: [FakeDatabase], stage: development)")
        #expect(!description.contains("hunter2"))
    }
}
