import Logging
import LoggingTestSupport
import Objection
import ObjectionServiceLifecycle
import Testing

/// `LoggingObserver` logs constructions, disposals and failed resolutions, naming keys and error
/// types, never values.
@Suite(.timeLimit(.minutes(1))) struct LoggingObserverTests {
    @Test func logsAConstructionStartedAndFinishedWithItsDuration() async throws {
        let capture = LogCapture()
        let fixture = try await Fixture(databaseIsService: false, observer: LoggingObserver(logger: capture.logger()))

        _ = try await fixture.injector.get(FakeDatabase.self)

        let started = capture.entries(withMessage: "Building instance")
        #expect(started.map(\.level) == [.trace])
        #expect(started.first?.metadata["objection.key"] == "FakeDatabase")
        #expect(started.first?.metadata["objection.scope"] == "singleton")
        let finished = capture.entries(withMessage: "Built instance")
        #expect(finished.map(\.level) == [.debug])
        #expect(finished.first?.metadata["objection.key"] == "FakeDatabase")
        #expect(finished.first?.metadata["objection.duration"]?.description.hasSuffix("seconds") == true)
    }

    @Test func logsAConstructionFailureByErrorTypeNotItsDescription() async throws {
        let capture = LogCapture()
        let fixture = try await Fixture(repositoryFails: true, observer: LoggingObserver(logger: capture.logger()))

        await #expect(throws: SecretError.self) { try await fixture.injector.get(Repository.self) }

        let failed = capture.entries(withMessage: "Building instance failed")
        #expect(failed.map(\.level) == [.error])
        #expect(failed.first?.metadata["objection.key"] == "Repository")
        #expect(failed.first?.metadata["objection.error"] == "SecretError")
        #expect(capture.entries(withMessage: "Resolution failed").map(\.level) == [.debug])
        #expect(!capture.all.contains { "\($0.message) \($0.metadata)".contains("hunter2") })
    }

    @Test func logsAnInjectionErrorByItsDescriptionAtWarning() async throws {
        let capture = LogCapture()
        let fixture = try await Fixture(observer: LoggingObserver(logger: capture.logger()))

        await #expect(throws: InjectionError.self) { try await fixture.injector.get(Clock.self) }

        let failed = capture.entries(withMessage: "Resolution failed")
        #expect(failed.map(\.level) == [.warning])
        #expect(failed.first?.metadata["objection.key"] == "Clock")
        #expect(failed.first?.metadata["objection.error"]?.description.contains("No binding for 'Clock'") == true)
    }

    @Test func logsDisposalsAndDisposalFailures() async throws {
        let capture = LogCapture()
        let injector = try await InjectorActor(
            modules: [FailingDisposalModule()],
            observer: LoggingObserver(logger: capture.logger())
        )
        _ = try await injector.get(Clock.self)
        _ = try await injector.get(FakeServer.self)

        let failure = await injector.shutdown()

        #expect(failure?.code == .disposalFailed)
        let disposed = capture.entries(withMessage: "Disposed instance")
        #expect(disposed.map(\.level) == [.trace])
        #expect(disposed.first?.metadata["objection.key"] == "Clock")
        let failed = capture.entries(withMessage: "Disposing instance failed")
        #expect(failed.map(\.level) == [.error])
        #expect(failed.first?.metadata["objection.key"] == "FakeServer")
        #expect(failed.first?.metadata["objection.error"] == "SecretError")
    }

    @Test func atInfoLogsFailuresOnlyAndAsksForNoSuccesses() async throws {
        let capture = LogCapture()
        var logger = capture.logger()
        logger.logLevel = .info
        let observer = LoggingObserver(logger: logger)
        #expect(!observer.observesSuccesses)
        logger.logLevel = .debug
        #expect(LoggingObserver(logger: logger).observesSuccesses)

        let injector = try await InjectorActor(modules: [FailingDisposalModule()], observer: observer)
        _ = try await injector.get(Clock.self)
        _ = try await injector.get(FakeServer.self)
        _ = await injector.shutdown()

        #expect(capture.entries(withMessage: "Building instance").isEmpty)
        #expect(capture.entries(withMessage: "Built instance").isEmpty)
        #expect(capture.entries(withMessage: "Disposed instance").isEmpty)
        let failed = capture.entries(withMessage: "Disposing instance failed")
        #expect(failed.map(\.level) == [.error])
        #expect(failed.first?.metadata["objection.key"] == "FakeServer")
        #expect(failed.first?.metadata["objection.duration"]?.description.hasSuffix("seconds") == true)
    }
}
