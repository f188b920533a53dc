import Logging
import LoggingTestSupport
import TestSupport
import Testing

@Suite("LogCapture", .timeLimit(.minutes(1)))
struct LogCaptureTests {
    @Test("Keeps every entry of its loggers in order, with the logger's and the call's metadata merged")
    func entries() {
        let logs = LogCapture()
        var first = logs.logger(label: "first")
        first[metadataKey: "request-id"] = "r1"
        first[metadataKey: "user"] = "ann"
        let second = logs.logger(label: "second")
        first.trace("hello", metadata: ["user": "bob"])
        second.error("failed", metadata: ["error": "boom"])
        first.info("hello")
        #expect(logs.all.map(\.message) == ["hello", "failed", "hello"])
        #expect(logs.entries(withMessage: "hello").map(\.level) == [.trace, .info])
        #expect(logs.entries(at: .error).map(\.metadata) == [["error": "boom"]])
        let hello = logs.entries(withMessage: "hello")
        #expect(hello.first?.metadata == ["request-id": "r1", "user": "bob"])
        #expect(hello.last?.metadata == ["request-id": "r1", "user": "ann"])
        #expect(logs.all[1].description == #"failed ["error": boom]"#)
    }

    @Test("A logger made with a level keeps only that level and above")
    func level() {
        let logs = LogCapture()
        let logger = logs.logger(label: "quiet", level: .debug)
        logger.trace("dropped")
        logger.debug("kept")
        #expect(logs.all.map(\.message) == ["kept"])
    }

    @Test("Finds positions by message and metadata value, among entries and a test's own marks")
    func positions() {
        let logs = LogCapture()
        let logger = logs.logger()
        logger.info("Built instance", metadata: ["key": "Database"])
        logs.append(.init(message: "probe"))
        logger.info("Built instance", metadata: ["key": "Cache"])
        logger.info("Built instance", metadata: ["key": "Database"])
        #expect(logs.firstIndex(of: "Built instance") == 0)
        #expect(logs.firstIndex(of: "Built instance", with: "Cache") == 2)
        #expect(logs.firstIndex(of: "probe") == 1)
        #expect(logs.firstIndex(of: "Built instance", with: "Pool") == nil)
        #expect(logs.indices(of: "Built instance", with: "Database") == [0, 3])
    }

    @Test("A signal asked for a message fires when it is logged, or at once if it was")
    func signals() async throws {
        let logs = LogCapture()
        let logger = logs.logger()
        let later = logs.signal(whenLogged: "stopping")
        #expect(!later.hasFired)
        logger.info("other")
        #expect(!later.hasFired)
        logger.info("stopping")
        try await later.wait()
        let already = logs.signal(whenLogged: "other")
        #expect(already.hasFired)
    }

    @Test("A handler made by hand appends to its capture")
    func handlerByHand() {
        let logs = LogCapture()
        let logger = Logger(label: "manual") { _ in CapturingLogHandler(capture: logs, logLevel: .warning) }
        logger.info("dropped")
        logger.warning("kept")
        #expect(logs.all.map(\.message) == ["kept"])
    }
}
