import Logging
import Tracing

/// A tracer that keeps its spans in the process, within bounds, and writes the injector's
/// start-up to the log as a tree when it ends.
///
/// It keeps every span that ends before the start-up's span (`objection.startup`, from
/// ObjectionTracing's `TracingObserver`) has ended — the singletons it built, and the services
/// built just before it — and after that a window of the most recent spans: the request-scoped
/// constructions of the latest requests. Nothing leaves the process: `inject` and `extract` do
/// nothing.
///
/// Written for this example rather than taking swift-distributed-tracing's `InMemoryTracer`, which
/// is meant for programmatic use in a process too, because that one keeps every span until it is
/// removed — in a server that records two spans per request, a leak — and tells nobody when a
/// span ends, so the start-up could only be found by polling.
///
/// ```swift
/// let tracer = InProcessTracer(logger: logger)
/// let injector = try await InjectorActor(modules: [AppModule(…)], startup: .deferred,
///                                        observer: TracingObserver(tracer: tracer))
/// // at start-up, in the log:
/// // Start-up trace: 4 spans in 1 traces
/// // objection.startup 9.486 ms singletons=2
/// //   construct PostgresClient 0.690 ms key=PostgresClient scope=singleton
/// //   construct Metrics 0.495 ms key=Metrics scope=singleton
/// //   construct LinkDatabase 8.233 ms key=LinkDatabase scope=singleton
/// ```
public struct InProcessTracer: Tracer {
    /// The span type this tracer starts.
    public typealias Span = InProcessSpan

    private let store: SpanStore

    /// A tracer that logs the start-up to `logger`.
    ///
    /// - Parameters:
    ///   - logger: Where the start-up's tree is written, at `info`.
    ///   - startupCapacity: At most this many spans are kept for the start-up.
    ///   - recentCapacity: How many of the most recent spans after the start-up are kept.
    public init(logger: Logger, startupCapacity: Int = 1_000, recentCapacity: Int = 100) {
        self.store = SpanStore(logger: logger, startupCapacity: startupCapacity, recentCapacity: recentCapacity)
    }

    /// Starts a span below the span of `context`, if it has one of this tracer's, else a new trace.
    ///
    /// - Parameters:
    ///   - operationName: What the span measures.
    ///   - context: Where it starts: its parent's context, or none.
    ///   - kind: Not kept.
    ///   - instant: When it started.
    ///   - function: Not kept.
    ///   - fileID: Not kept.
    ///   - line: Not kept.
    /// - Returns: The span; end it to keep it.
    public func startSpan<Instant: TracerInstant>(
        _ operationName: String,
        context: @autoclosure () -> InstrumentationContext,
        ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant,
        function: String,
        file fileID: String,
        line: UInt
    ) -> InProcessSpan {
        let context = context()
        let parent = context.inProcessSpan
        let spanID = store.nextID()
        let identity = InProcessSpanContext(traceID: parent?.traceID ?? store.nextID(), spanID: spanID)
        store.started(operationName, spanID: spanID)
        return InProcessSpan(
            operationName: operationName,
            context: context,
            identity: identity,
            parentSpanID: parent?.spanID,
            startNanoseconds: instant().nanosecondsSinceEpoch,
            onEnd: { [store] in store.finished($0) }
        )
    }

    /// Does nothing: spans are kept as they end.
    public func forceFlush() {}

    /// Does nothing: spans stay in the process.
    ///
    /// - Parameters:
    ///   - context: The context.
    ///   - carrier: The carrier.
    ///   - injector: The injector.
    public func inject<Carrier, Inject: Injector>(
        _ context: InstrumentationContext,
        into carrier: inout Carrier,
        using injector: Inject
    ) where Inject.Carrier == Carrier {}

    /// Does nothing: spans stay in the process.
    ///
    /// - Parameters:
    ///   - carrier: The carrier.
    ///   - context: The context.
    ///   - extractor: The extractor.
    public func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier,
        into context: inout InstrumentationContext,
        using extractor: Extract
    ) where Extract.Carrier == Carrier {}

    /// The start-up's spans once its span has ended, else `nil`.
    public var startupSpans: [FinishedSpan]? { store.startup }

    /// The start-up's spans: waits until its span has ended, for as long as the caller's task is
    /// not cancelled.
    ///
    /// ```swift
    /// let spans = await tracer.startup() ?? []
    /// ```
    ///
    /// - Returns: Every span that ended up to the start-up's own; `nil` if the task was cancelled
    ///   first.
    public func startup() async -> [FinishedSpan]? {
        await store.startupWhenEnded()
    }

    /// The most recent spans that ended after the start-up, oldest first.
    public var recentSpans: [FinishedSpan] { store.recent }
}
