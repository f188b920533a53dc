import TestSupport
import Testing

@Suite("withTeardown")
struct WithTeardownTests {
    struct BodyFailed: Error {}
    struct TeardownFailed: Error {}

    @Test("Tears down after the body returns, and returns what it returned")
    func afterSuccess() async throws {
        let events = EventLog()
        let value = try await withTeardown {
            events.record("body")
            return 42
        } teardown: {
            events.record("teardown")
        }
        #expect(value == 42)
        #expect(events.all == ["body", "teardown"])
    }

    @Test("Tears down after the body throws, and throws what it threw")
    func afterFailure() async {
        let events = EventLog()
        await #expect(throws: BodyFailed.self) {
            try await withTeardown {
                events.record("body")
                throw BodyFailed()
            } teardown: {
                events.record("teardown")
            }
        }
        #expect(events.all == ["body", "teardown"])
    }

    @Test("A failing teardown's error wins over the body's")
    func teardownFailure() async {
        await #expect(throws: TeardownFailed.self) {
            try await withTeardown {
                throw BodyFailed()
            } teardown: {
                throw TeardownFailed()
            }
        }
    }
}
