import NIOConcurrencyHelpers
import Tracing

/// A span of ``InProcessTracer``: it records its name, attributes and status, and on `end` hands a
/// ``FinishedSpan`` to its tracer. Events and links are not kept: nothing in this server reads them.
public final class InProcessSpan: Span {
    /// The context the span was started in, with this span as its current one.
    public let context: InstrumentationContext
    private let identity: InProcessSpanContext
    private let parentSpanID: UInt64?
    private let startNanoseconds: UInt64
    private let onEnd: @Sendable (FinishedSpan) -> Void

    private struct State {
        var operationName: String
        var attributes: SpanAttributes = [:]
        var failed = false
        var ended = false
    }

    private let state: NIOLockedValueBox<State>

    init(
        operationName: String,
        context: InstrumentationContext,
        identity: InProcessSpanContext,
        parentSpanID: UInt64?,
        startNanoseconds: UInt64,
        onEnd: @escaping @Sendable (FinishedSpan) -> Void
    ) {
        var context = context
        context.inProcessSpan = identity
        self.context = context
        self.identity = identity
        self.parentSpanID = parentSpanID
        self.startNanoseconds = startNanoseconds
        self.onEnd = onEnd
        self.state = NIOLockedValueBox(State(operationName: operationName))
    }

    /// What the span measures.
    public var operationName: String {
        get { state.withLockedValue { $0.operationName } }
        set { state.withLockedValue { $0.operationName = newValue } }
    }

    /// The span's attributes.
    public var attributes: SpanAttributes {
        get { state.withLockedValue { $0.attributes } }
        set { state.withLockedValue { $0.attributes = newValue } }
    }

    /// Whether the span still records: until it ends.
    public var isRecording: Bool { state.withLockedValue { !$0.ended } }

    /// Keeps whether the status is `error`; the message is not kept.
    ///
    /// - Parameter status: The span's status.
    public func setStatus(_ status: SpanStatus) {
        state.withLockedValue { $0.failed = status.code == .error }
    }

    /// Not kept.
    ///
    /// - Parameter event: The event.
    public func addEvent(_ event: SpanEvent) {}

    /// Not kept: the status `error` that comes with it is.
    ///
    /// - Parameters:
    ///   - error: The error.
    ///   - attributes: Its attributes.
    ///   - instant: When it happened.
    public func recordError<Instant: TracerInstant>(
        _ error: any Error,
        attributes: SpanAttributes,
        at instant: @autoclosure () -> Instant
    ) {}

    /// Not kept.
    ///
    /// - Parameter link: The link.
    public func addLink(_ link: SpanLink) {}

    /// Ends the span at `instant` and hands it to its tracer; later calls do nothing.
    ///
    /// - Parameter instant: When it ended.
    public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        let end = instant().nanosecondsSinceEpoch
        let finished: FinishedSpan? = state.withLockedValue { state in
            guard !state.ended else { return nil }
            state.ended = true
            return FinishedSpan(
                traceID: identity.traceID,
                spanID: identity.spanID,
                parentSpanID: parentSpanID,
                operationName: state.operationName,
                startNanoseconds: startNanoseconds,
                endNanoseconds: max(end, startNanoseconds),
                attributes: state.attributes,
                failed: state.failed
            )
        }
        if let finished { onEnd(finished) }
    }
}
