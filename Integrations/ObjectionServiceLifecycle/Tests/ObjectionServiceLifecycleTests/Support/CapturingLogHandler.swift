import Logging
import Synchronization

/// The entries logged through ``CapturingLogHandler``s that share it.
final class LogCapture: Sendable {
    /// One logged entry, with the logger's metadata and the call's merged.
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata
    }

    private let entries = Mutex<[Entry]>([])

    /// A logger whose entries land here, at `trace` so that nothing is filtered.
    func logger(label: String = "test") -> Logger {
        var logger = Logger(label: label) { _ in CapturingLogHandler(capture: self) }
        logger.logLevel = .trace
        return logger
    }

    func append(_ entry: Entry) {
        entries.withLock { $0.append(entry) }
    }

    /// The entries whose message is `message`, in order.
    func entries(withMessage message: String) -> [Entry] {
        entries.withLock { $0.filter { $0.message == message } }
    }

    /// Every entry, in order.
    var all: [Entry] {
        entries.withLock { $0 }
    }

    /// The entries logged at `level`, in order.
    func entries(at level: Logger.Level) -> [Entry] {
        entries.withLock { $0.filter { $0.level == level } }
    }
}

/// A log handler that keeps every entry in a ``LogCapture``, for tests to read.
struct CapturingLogHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, call in call }
        capture.append(.init(level: event.level, message: "\(event.message)", metadata: merged))
    }
}
