import Logging
import NIOConcurrencyHelpers

/// What the server's lifecycle logged, in one order: `InjectorService` and the service groups, the
/// injector's `LoggingObserver`, and the tests' own probes. The order of shutdown is read here.
final class EventLog: Sendable {
    /// One logged entry, with the logger's metadata and the call's merged.
    struct Entry: Sendable, CustomStringConvertible {
        var message: String
        var metadata: Logger.Metadata

        var description: String { "\(message) \(metadata)" }
    }

    private let entries = NIOLockedValueBox<[Entry]>([])

    /// A logger whose entries land here, at `trace` so that nothing is filtered.
    func logger(label: String) -> Logger {
        var logger = Logger(label: label) { _ in RecordingLogHandler(log: self) }
        logger.logLevel = .trace
        return logger
    }

    func append(_ message: String, metadata: Logger.Metadata = [:]) {
        entries.withLockedValue { $0.append(Entry(message: message, metadata: metadata)) }
    }

    /// Every entry so far, oldest first.
    var all: [Entry] {
        entries.withLockedValue { $0 }
    }

    /// The position of the first entry with `message` and, when given, a metadata value equal to
    /// `value`; `nil` if there is none.
    func firstIndex(of message: String, with value: String? = nil) -> Int? {
        all.firstIndex { entry in
            entry.message == message
                && (value.map { value in entry.metadata.values.contains { "\($0)" == value } } ?? true)
        }
    }

    /// The positions of every entry with `message` and a metadata value equal to `value`.
    func indices(of message: String, with value: String) -> [Int] {
        all.indices.filter { index in
            let entry = all[index]
            return entry.message == message && entry.metadata.values.contains { "\($0)" == value }
        }
    }
}

/// A log handler that keeps every entry in an ``EventLog``.
struct RecordingLogHandler: LogHandler {
    let log: EventLog
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        log.append("\(event.message)", metadata: metadata.merging(event.metadata ?? [:]) { _, call in call })
    }
}
