import Logging

/// A log handler that keeps every entry in a ``LogCapture``, for tests to read.
///
/// ``LogCapture/logger(label:level:)`` makes loggers with it; bootstrap or build one by hand when a
/// library asks for a handler factory:
///
/// ```swift
/// let logs = LogCapture()
/// let logger = Logger(label: "server") { _ in CapturingLogHandler(capture: logs) }
/// ```
public struct CapturingLogHandler: LogHandler {
    /// Where the entries go.
    public let capture: LogCapture
    /// The logger's own metadata, merged into every entry.
    public var metadata: Logger.Metadata = [:]
    /// The logger's metadata provider. Entries keep only the logger's and the call's metadata.
    public var metadataProvider: Logger.MetadataProvider?
    /// The lowest level kept.
    public var logLevel: Logger.Level

    /// Creates a handler that appends to `capture`.
    ///
    /// - Parameters:
    ///   - capture: Where the entries go.
    ///   - logLevel: The lowest level kept; by default `trace`.
    public init(capture: LogCapture, logLevel: Logger.Level = .trace) {
        self.capture = capture
        self.logLevel = logLevel
    }

    /// The logger's metadata value for `key`.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Appends the event to the capture, with the logger's and the call's metadata merged.
    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, call in call }
        capture.append(.init(level: event.level, message: "\(event.message)", metadata: merged))
    }
}
