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

    private let state = Mutex<(entries: [Entry], watches: [(message: String, signal: Signal)])>(([], []))

    /// A logger whose entries land here, at `trace` so that nothing is filtered.
    func logger(label: String = "test") -> Logger {
        var logger = Logger(label: label) { _ in CapturingLogHandler(capture: self) }
        logger.logLevel = .trace
        return logger
    }

    func append(_ entry: Entry) {
        let fired = state.withLock { state in
            state.entries.append(entry)
            return state.watches.filter { $0.message == entry.message }.map(\.signal)
        }
        for signal in fired { signal.fire() }
    }

    /// A signal fired when `message` is next logged (or now, if it has been already).
    func signal(whenLogged message: String) -> Signal {
        let signal = Signal()
        let logged = state.withLock { state in
            state.watches.append((message, signal))
            return state.entries.contains { $0.message == message }
        }
        if logged { signal.fire() }
        return signal
    }

    /// The entries whose message is `message`, in order.
    func entries(withMessage message: String) -> [Entry] {
        state.withLock { $0.entries.filter { $0.message == message } }
    }

    /// The entries logged at `level`, in order.
    func entries(at level: Logger.Level) -> [Entry] {
        state.withLock { $0.entries.filter { $0.level == level } }
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
