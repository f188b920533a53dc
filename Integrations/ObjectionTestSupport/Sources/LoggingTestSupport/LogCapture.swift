import Logging
import Synchronization
import TestSupport

/// The entries logged through the loggers it makes (``CapturingLogHandler``s that share it), in
/// order, for the tests to read and to wait on.
///
/// ```swift
/// let logs = LogCapture()
/// let app = Application(router: router, logger: logs.logger())
/// …
/// let logged = try #require(logs.entries(at: .error).first)
/// #expect(logged.metadata["request-id"] == "abc")
/// ```
public final class LogCapture: Sendable {
    /// One logged entry, with the logger's metadata and the call's merged (the call's win).
    public struct Entry: Sendable, CustomStringConvertible {
        /// The level it was logged at.
        public var level: Logger.Level
        /// The message, as text.
        public var message: String
        /// The logger's metadata and the call's, merged.
        public var metadata: Logger.Metadata

        /// Creates an entry, as a handler or a test's own probe records one.
        ///
        /// - Parameters:
        ///   - level: The level it was logged at.
        ///   - message: The message.
        ///   - metadata: Its metadata.
        public init(level: Logger.Level = .info, message: String, metadata: Logger.Metadata = [:]) {
            self.level = level
            self.message = message
            self.metadata = metadata
        }

        /// The message and the metadata, for failure messages.
        public var description: String { "\(message) \(metadata)" }

        /// Whether one of the metadata values, as text, is `value`.
        func hasMetadataValue(_ value: String) -> Bool {
            metadata.values.contains { "\($0)" == value }
        }
    }

    private let state = Mutex<(entries: [Entry], watches: [(message: String, signal: Signal)])>(([], []))

    /// Creates an empty capture.
    public init() {}

    /// A logger whose entries land here.
    ///
    /// - Parameters:
    ///   - label: The logger's label.
    ///   - level: The lowest level kept; by default `trace`, so that nothing is filtered.
    /// - Returns: The logger.
    public func logger(label: String = "test", level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: label) { _ in CapturingLogHandler(capture: self) }
        logger.logLevel = level
        return logger
    }

    /// Appends `entry`, and fires the signals that wait for its message: what the handlers call,
    /// and what a test's own probe calls to mark a moment among the logged entries.
    public func append(_ entry: Entry) {
        let fired = state.withLock { state in
            state.entries.append(entry)
            return state.watches.filter { $0.message == entry.message }.map(\.signal)
        }
        for signal in fired { signal.fire() }
    }

    /// A signal fired when `message` is next logged, or at once if it has been already.
    ///
    /// Ask for it before the action that logs, and wait on it after:
    ///
    /// ```swift
    /// let stopping = logs.signal(whenLogged: "Requesting HTTP server shutdown")
    /// let shutdown = Task { try await app.asyncShutdown() }
    /// try await stopping.wait()
    /// ```
    public func signal(whenLogged message: String) -> Signal {
        let signal = Signal()
        let logged = state.withLock { state in
            state.watches.append((message, signal))
            return state.entries.contains { $0.message == message }
        }
        if logged { signal.fire() }
        return signal
    }

    /// Every entry so far, oldest first.
    public var all: [Entry] { state.withLock { $0.entries } }

    /// The entries whose message is `message`, in order.
    public func entries(withMessage message: String) -> [Entry] {
        state.withLock { $0.entries.filter { $0.message == message } }
    }

    /// The entries logged at `level`, in order.
    public func entries(at level: Logger.Level) -> [Entry] {
        state.withLock { $0.entries.filter { $0.level == level } }
    }

    /// The position of the first entry with `message` and, when given, a metadata value equal to
    /// `value` as text; `nil` if there is none. Positions order entries across loggers.
    public func firstIndex(of message: String, with value: String? = nil) -> Int? {
        state.withLock { state in
            state.entries.firstIndex { $0.message == message && (value.map($0.hasMetadataValue) ?? true) }
        }
    }

    /// The positions of every entry with `message` and a metadata value equal to `value` as text.
    public func indices(of message: String, with value: String) -> [Int] {
        state.withLock { state in
            state.entries.indices.filter {
                state.entries[$0].message == message && state.entries[$0].hasMetadataValue(value)
            }
        }
    }
}
