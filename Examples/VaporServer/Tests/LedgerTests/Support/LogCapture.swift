import Logging
import Synchronization

/// The entries logged through the loggers it makes, in order, for the tests to read: the server's
/// own and Vapor's (the HTTP server's shutdown, ObjectionVapor's lifecycle, the opaque `500`s).
final class LogCapture: Sendable {
    /// One logged entry, with the logger's metadata and the call's merged.
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata
    }

    private let state = Mutex<
        (entries: [Entry], watches: [(message: String, continuation: AsyncStream<Void>.Continuation)])
    >(
        ([], []))

    /// A logger whose entries land here, from `debug` up.
    func logger(label: String) -> Logger {
        var logger = Logger(label: label) { _ in CapturingLogHandler(capture: self) }
        logger.logLevel = .debug
        return logger
    }

    fileprivate func append(_ entry: Entry) {
        let fired = state.withLock { state in
            state.entries.append(entry)
            return state.watches.filter { $0.message == entry.message }.map(\.continuation)
        }
        for continuation in fired { continuation.finish() }
    }

    /// Returns once `message` has been logged, now or earlier.
    func logged(_ message: String) async {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        let already = state.withLock { state in
            state.watches.append((message, continuation))
            return state.entries.contains { $0.message == message }
        }
        if already { continuation.finish() }
        for await _ in stream {}
    }

    /// The position of the first entry with `message`; `nil` if there is none.
    func firstIndex(of message: String) -> Int? {
        state.withLock { $0.entries.firstIndex { $0.message == message } }
    }

    /// The entries logged at `level`, in order.
    func entries(at level: Logger.Level) -> [Entry] {
        state.withLock { $0.entries.filter { $0.level == level } }
    }
}

/// A log handler that keeps every entry in a ``LogCapture``.
private struct CapturingLogHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .debug

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, call in call }
        capture.append(LogCapture.Entry(level: event.level, message: "\(event.message)", metadata: merged))
    }
}
