import Tracing

/// A span that ended, as ``InProcessTracer`` keeps it: its place in its trace, its timing and its
/// attributes.
public struct FinishedSpan: Sendable {
    /// The trace it belongs to: every span below the same root shares it.
    public var traceID: UInt64
    /// Its identity, unique in its tracer.
    public var spanID: UInt64
    /// The span it is nested under; `nil` for a root.
    public var parentSpanID: UInt64?
    /// What it measured: `construct LinkDatabase`, `objection.startup`.
    public var operationName: String
    /// When it started, in nanoseconds since the Unix epoch.
    public var startNanoseconds: UInt64
    /// When it ended, in nanoseconds since the Unix epoch.
    public var endNanoseconds: UInt64
    /// Its attributes: `objection.key` and `objection.scope` for a construction.
    public var attributes: SpanAttributes
    /// Whether it ended with the status `error`.
    public var failed: Bool

    /// How long it lasted, in whole microseconds.
    public var durationMicroseconds: Int64 {
        Int64(clamping: (endNanoseconds - min(startNanoseconds, endNanoseconds)) / 1_000)
    }

    /// The attribute `name` as text, or `nil` if the span has none of that name.
    ///
    /// ```swift
    /// span.attribute("objection.key")   // "LinkDatabase"
    /// ```
    ///
    /// - Parameter name: The attribute's name.
    /// - Returns: Its value as text.
    public func attribute(_ name: String) -> String? {
        guard let value = attributes.get(name) else { return nil }
        switch value {
        case .string(let text): return text
        case .int64(let number): return String(number)
        case .int32(let number): return String(number)
        case .double(let number): return String(number)
        case .bool(let flag): return String(flag)
        case .stringConvertible(let value): return value.description
        default: return String(describing: value)
        }
    }
}
