import Objection
import Synchronization
import Tracing

/// Records a span for each construction of a cached instance — singleton, scoped, custom-scoped,
/// at startup or on first use — nested under the span of the construction that needed it, and a
/// span for each startup above the singletons it builds.
///
/// Each construction's span is named `construct <key>` and carries the attributes
/// `objection.key`, `objection.scope` and `objection.construction` (its process-unique id). A
/// failed construction records its error and ends with the status `error`. A startup's span is
/// named `objection.startup`, with `objection.singletons`, and is a child of the span current
/// where the injector was created or ``Objection/InjectorActor/start(within:)`` was called.
///
/// A singleton is built in a task of its own that carries none of its caller's task-local
/// values, on purpose: a construction below another finds its parent span through the observer,
/// not through `ServiceContext.current`. A construction that no construction needed (a scoped
/// instance a request handler asks for, or a singleton first built for one) is a child of the
/// span current on the task that asked — the request's span, when the server traces requests:
/// the injector tells the observer a construction starts on that task, a singleton's included.
///
/// ```swift
/// import ObjectionTracing
///
/// let injector = try await InjectorActor(
///     modules: [AppModule()],
///     stage: .production,
///     observer: TracingObserver()   // InstrumentationSystem.tracer, as bootstrapped
/// )
/// ```
public final class TracingObserver: InjectionObserver {
    private let tracer: any Tracer
    /// The spans started and not ended, by the id of their construction or startup.
    private let open = Mutex<[ObservedConstruction.ID: OpenSpan]>([:])
    /// Each key's span name and attribute strings, made on its first construction: describing a
    /// type costs about half a microsecond, and a request scope constructs the same keys each time.
    private let labels = Mutex<[Labels.Key: Labels]>([:])

    /// A span and when it started, from which its end is placed without reading the clocks again.
    private struct OpenSpan {
        let span: any Span
        let start: WallClockInstant
        /// ``start`` on the continuous clock: the spans below this one are placed from it.
        let continuousStart: ContinuousClock.Instant
    }

    private struct Labels {
        struct Key: Hashable {
            let key: BindingKey
            let scope: Scope
        }

        let name: String
        let key: String
        let scope: String
    }

    /// An observer that records to `tracer`.
    ///
    /// ```swift
    /// InstrumentationSystem.bootstrap(otelTracer)
    /// let observer = TracingObserver()
    /// ```
    ///
    /// - Parameter tracer: Where spans go: by default the tracer bootstrapped in
    ///   `InstrumentationSystem` when the observer is made.
    public init(tracer: any Tracer = InstrumentationSystem.tracer) {
        self.tracer = tracer
    }

    /// Starts the span of `construction`, below its parent's span.
    ///
    /// ```swift
    /// observer.constructionStarted(construction)   // the injector calls it
    /// ```
    ///
    /// - Parameter construction: The construction starting.
    public func constructionStarted(_ construction: ObservedConstruction) {
        let parent = construction.parentID.flatMap { id in open.withLock { $0[id] } }
        let labels = labels(of: construction)
        // Below an open span, placed from that span's start on the continuous clock: a child
        // then starts no earlier and ends no later than its parent, whatever the clocks did.
        let start =
            parent.map { $0.start.advanced(by: construction.start - $0.continuousStart) }
            ?? WallClockInstant(construction.start)
        let span = tracer.startSpan(
            labels.name,
            context: parent?.span.context ?? .current ?? .topLevel,
            ofKind: .internal,
            at: start
        )
        span.attributes["objection.key"] = labels.key
        span.attributes["objection.scope"] = labels.scope
        span.attributes["objection.construction"] = Int64(truncatingIfNeeded: construction.id.rawValue)
        open.withLock {
            $0[construction.id] = OpenSpan(span: span, start: start, continuousStart: construction.start)
        }
    }

    private func labels(of construction: ObservedConstruction) -> Labels {
        let key = Labels.Key(key: construction.key, scope: construction.scope)
        if let known = labels.withLock({ $0[key] }) { return known }
        let description = construction.key.description
        let made = Labels(name: "construct \(description)", key: description, scope: construction.scope.description)
        labels.withLock { $0[key] = made }
        return made
    }

    /// Ends the span of `construction`.
    ///
    /// ```swift
    /// observer.constructionFinished(construction, duration: .milliseconds(3))   // the injector calls it
    /// ```
    ///
    /// - Parameters:
    ///   - construction: The construction that built its instance.
    ///   - duration: How long it took.
    public func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
        guard let open = open.withLock({ $0.removeValue(forKey: construction.id) }) else { return }
        open.span.end(at: open.start.advanced(by: max(duration, .zero)))
    }

    /// Records `error` on the span of `construction`, and ends it with the status `error`.
    ///
    /// ```swift
    /// observer.constructionFailed(construction, duration: .zero, error: failure)   // the injector calls it
    /// ```
    ///
    /// - Parameters:
    ///   - construction: The construction that failed.
    ///   - duration: How long it took.
    ///   - error: What it threw.
    public func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
        guard let open = open.withLock({ $0.removeValue(forKey: construction.id) }) else { return }
        let end = open.start.advanced(by: max(duration, .zero))
        open.span.recordError(error, attributes: [:], at: end)
        open.span.setStatus(SpanStatus(code: .error))
        open.span.end(at: end)
    }

    /// The name of a startup's span, for a tracer or a test that looks for it.
    ///
    /// ```swift
    /// let startups = spans.filter { $0.operationName == TracingObserver.startupOperationName }
    /// ```
    public static let startupOperationName = "objection.startup"

    /// Starts the span of a startup, below the span current on the calling task.
    ///
    /// ```swift
    /// observer.startupStarted(id, singletons: 20)   // the injector calls it
    /// ```
    ///
    /// - Parameters:
    ///   - id: The startup's identity.
    ///   - singletons: How many singletons it builds.
    public func startupStarted(_ id: ObservedConstruction.ID, singletons: Int) {
        let now = ContinuousClock.now
        let start = WallClockInstant(now)
        let span = tracer.startSpan(
            Self.startupOperationName, context: .current ?? .topLevel, ofKind: .internal, at: start)
        span.attributes["objection.singletons"] = singletons
        open.withLock { $0[id] = OpenSpan(span: span, start: start, continuousStart: now) }
    }

    /// Ends the span of a startup, recording its error if it failed.
    ///
    /// ```swift
    /// observer.startupFinished(id, duration: .seconds(1), error: nil)   // the injector calls it
    /// ```
    ///
    /// - Parameters:
    ///   - id: The startup's identity.
    ///   - duration: How long it took.
    ///   - error: What ended it early, if anything.
    public func startupFinished(_ id: ObservedConstruction.ID, duration: Duration, error: (any Error)?) {
        guard let open = open.withLock({ $0.removeValue(forKey: id) }) else { return }
        if let error {
            open.span.recordError(error)
            open.span.setStatus(SpanStatus(code: .error))
        }
        // `duration` runs from before this span's start: its end is no earlier than its singletons'.
        open.span.end(at: open.start.advanced(by: max(duration, .zero)))
    }
}
