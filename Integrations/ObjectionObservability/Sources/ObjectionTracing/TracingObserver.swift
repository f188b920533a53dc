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
    /// The startups' spans not yet ended, by the id of their startup: what the singletons a
    /// startup builds find as their parent. A construction's span is its own
    /// ``ConstructionObserver``, handed to the constructions below it; no table holds it.
    private let startups = Mutex<[ObservedConstruction.ID: OpenSpan]>([:])
    /// Each key's span name and attribute strings, made once per key and scope: describing a type
    /// costs about half a microsecond, and a scope with modules of its own has bindings of its
    /// own, which would describe the same key again.
    private let labels = Mutex<[Labels.Key: Labels]>([:])

    /// A started span and when it started, from which its end, and its children's starts, are
    /// placed without reading the clocks again.
    private final class OpenSpan: ConstructionObserver {
        let span: any Span
        let start: WallClockInstant
        /// ``start`` on the continuous clock: the spans below this one are placed from it.
        let continuousStart: ContinuousClock.Instant

        init(span: any Span, start: WallClockInstant, continuousStart: ContinuousClock.Instant) {
            self.span = span
            self.start = start
            self.continuousStart = continuousStart
        }

        func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
            end(after: duration)
        }

        func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
            end(failedWith: error, after: duration)
        }

        func end(after duration: Duration) {
            span.end(at: start.advanced(by: max(duration, .zero)))
        }

        func end(failedWith error: any Error, after duration: Duration) {
            let end = start.advanced(by: max(duration, .zero))
            span.recordError(error, attributes: [:], at: end)
            span.setStatus(SpanStatus(code: .error))
            span.end(at: end)
        }
    }

    private struct Labels: Sendable {
        struct Key: Hashable {
            let key: BindingKey
            let scope: Scope
        }

        let name: String
        let key: String
        let scope: String
    }

    /// One binding's constructions: its labels, made once, and where its spans go.
    private final class TracedBinding: BindingObserver {
        let tracer: any Tracer
        let labels: Labels
        let observer: TracingObserver

        init(tracer: any Tracer, labels: Labels, observer: TracingObserver) {
            self.tracer = tracer
            self.labels = labels
            self.observer = observer
        }

        func constructionStarted(
            _ construction: ObservedConstruction,
            parent: (any ConstructionObserver)?
        ) -> any ConstructionObserver {
            let parent = (parent as? OpenSpan) ?? observer.openStartup(construction.parentID)
            // Below an open span, placed from that span's start on the continuous clock: a child
            // then starts no earlier and ends no later than its parent, whatever the clocks did.
            let continuousStart = construction.start
            let start =
                parent.map { $0.start.advanced(by: continuousStart - $0.continuousStart) }
                ?? WallClockInstant(continuousStart)
            let span = tracer.startSpan(
                labels.name,
                context: parent?.span.context ?? .current ?? .topLevel,
                ofKind: .internal,
                at: start
            )
            // One update, not three: a span's attributes are read and written whole each time.
            span.updateAttributes { attributes in
                attributes["objection.key"] = labels.key
                attributes["objection.scope"] = labels.scope
                attributes["objection.construction"] = Int64(truncatingIfNeeded: construction.id.rawValue)
            }
            return OpenSpan(span: span, start: start, continuousStart: continuousStart)
        }
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

    /// What starts the span of each construction of `key` under `scope`, below its parent's
    /// span: its labels made once.
    ///
    /// ```swift
    /// let forDatabase = observer.bindingObserver(for: BindingKey(Database.self), scope: .singleton)
    /// ```
    ///
    /// - Parameters:
    ///   - key: The binding's key.
    ///   - scope: Its lifetime.
    /// - Returns: What starts each construction's span; the span ends each.
    public func bindingObserver(for key: BindingKey, scope: Scope) -> any BindingObserver {
        TracedBinding(tracer: tracer, labels: labels(of: key, scope: scope), observer: self)
    }

    private func labels(of key: BindingKey, scope: Scope) -> Labels {
        let labelsKey = Labels.Key(key: key, scope: scope)
        if let known = labels.withLock({ $0[labelsKey] }) { return known }
        let description = key.description
        let made = Labels(name: "construct \(description)", key: description, scope: scope.description)
        labels.withLock { $0[labelsKey] = made }
        return made
    }

    /// The span of the startup `id` names, if it is one still open.
    private func openStartup(_ id: ObservedConstruction.ID?) -> OpenSpan? {
        guard let id else { return nil }
        return startups.withLock { $0[id] }
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
        startups.withLock { $0[id] = OpenSpan(span: span, start: start, continuousStart: now) }
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
        guard let open = startups.withLock({ $0.removeValue(forKey: id) }) else { return }
        // `duration` runs from before this span's start: its end is no earlier than its singletons'.
        if let error {
            open.end(failedWith: error, after: duration)
        } else {
            open.end(after: duration)
        }
    }
}
