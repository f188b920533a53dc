import Tracing

/// Where an ``InProcessSpan`` sits in its trace; carried in the span's `InstrumentationContext`, so
/// that a span started with that context as its parent joins the trace.
struct InProcessSpanContext: Sendable, Hashable {
    var traceID: UInt64
    var spanID: UInt64
}

/// The instrumentation-context key of ``InProcessSpanContext``.
private enum InProcessSpanContextKey: InstrumentationContextKey {
    typealias Value = InProcessSpanContext
}

extension InstrumentationContext {
    /// The in-process span this context belongs to, if any.
    var inProcessSpan: InProcessSpanContext? {
        get { self[InProcessSpanContextKey.self] }
        set { self[InProcessSpanContextKey.self] = newValue }
    }
}
