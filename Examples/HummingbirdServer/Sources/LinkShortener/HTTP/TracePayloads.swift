import Hummingbird

/// The body of `GET /traces`.
public struct TracesResponse: ResponseCodable, Sendable, Hashable {
    /// Every span that ended up to the start-up's own; absent while the start-up runs.
    public var startup: [SpanResponse]?
    /// The most recent spans after the start-up, oldest first.
    public var recent: [SpanResponse]
}

/// One finished span, as `GET /traces` shows it.
public struct SpanResponse: Codable, Sendable, Hashable {
    /// The trace it belongs to.
    public var traceID: UInt64
    /// Its identity.
    public var spanID: UInt64
    /// The span it is nested under; absent for a root.
    public var parentSpanID: UInt64?
    /// `construct <key>`, or `objection.startup`.
    public var name: String
    /// How long it lasted, in microseconds.
    public var durationMicroseconds: Int64
    /// The binding built (`objection.key`), for a construction.
    public var key: String?
    /// Its scope (`objection.scope`), for a construction.
    public var scope: String?
    /// Whether it ended with the status `error`.
    public var failed: Bool

    /// Describes `span`.
    ///
    /// - Parameter span: The span.
    public init(_ span: FinishedSpan) {
        self.traceID = span.traceID
        self.spanID = span.spanID
        self.parentSpanID = span.parentSpanID
        self.name = span.operationName
        self.durationMicroseconds = span.durationMicroseconds
        self.key = span.attribute("objection.key")
        self.scope = span.attribute("objection.scope")
        self.failed = span.failed
    }
}
