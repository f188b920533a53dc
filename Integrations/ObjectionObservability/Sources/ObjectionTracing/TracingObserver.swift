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
/// In a server, where a request's scoped constructions take microseconds and each span costs
/// about as much again, `minimumDuration` keeps the spans worth reading: a construction that took
/// at least that long or failed, and the constructions above it. The first build of a database
/// pool for a request is then in that request's trace; a request's cheap scoped values are not. A
/// startup's tree is kept whole: each of its singletons is built once.
///
/// It hears constructions through ``bindingObserver(for:scope:)``, as the injector calls it. An
/// observer that wraps it must hand that on: the `ObservedConstruction` methods of
/// ``Objection/InjectionObserver`` record nothing here.
///
/// ```swift
/// import ObjectionTracing
///
/// let injector = try await InjectorActor(
///     modules: [AppModule()],
///     stage: .production,
///     observer: TracingObserver(minimumDuration: .microseconds(100))   // the bootstrapped tracer
/// )
/// ```
public final class TracingObserver: InjectionObserver {
    private let tracer: any Tracer
    private let minimumDuration: Duration
    /// The startups' spans not yet ended, by the id of their startup: what the singletons a
    /// startup builds find as their parent. A construction's span is its own
    /// ``ConstructionObserver``, handed to the constructions below it; no table holds it.
    private let startups = Mutex<[ObservedConstruction.ID: ConstructionSpan]>([:])
    /// Each key's span name and attributes, made once per key and scope: describing a type costs
    /// about half a microsecond, and a scope with modules of its own has bindings of its own,
    /// which would describe the same key again.
    private let labels = Mutex<[Labels.Key: Labels]>([:])

    private struct Labels: Sendable {
        struct Key: Hashable {
            let key: BindingKey
            let scope: Scope
        }

        let name: String
        /// `objection.key` and `objection.scope`, with room for `objection.construction`.
        let attributes: SpanAttributes
    }

    /// The attribute that carries a construction's process-unique id.
    static let constructionAttribute = "objection.construction"

    /// One binding's constructions: its labels, made once, and where its spans go.
    private final class TracedBinding: BindingObserver {
        let labels: Labels
        let observer: TracingObserver

        init(labels: Labels, observer: TracingObserver) {
            self.labels = labels
            self.observer = observer
        }

        func constructionStarted(
            _ construction: ObservedConstruction,
            parent: (any ConstructionObserver)?
        ) -> any ConstructionObserver {
            let parentSpan = (parent as? ConstructionSpan) ?? observer.openStartup(construction.parentID)
            let above: ConstructionSpan.Parent = parentSpan.map { .span($0) } ?? .context(.current ?? .topLevel)
            // A startup's constructions are each built once: its tree is kept whole.
            let keepsAll = parentSpan?.keepsDescendants ?? false
            return ConstructionSpan(
                name: labels.name,
                attributes: labels.attributes,
                constructionID: Int64(truncatingIfNeeded: construction.id.rawValue),
                tracer: observer.tracer,
                parent: above,
                start: construction.start,
                minimumDuration: keepsAll ? .zero : observer.minimumDuration,
                keepsDescendants: keepsAll
            ).startedUnlessDeferred()
        }
    }

    /// An observer that records to `tracer`.
    ///
    /// ```swift
    /// InstrumentationSystem.bootstrap(otelTracer)
    /// let observer = TracingObserver()
    /// // In a server: a span for what took 100 µs or more, or failed, and for what it was below.
    /// let sparing = TracingObserver(minimumDuration: .microseconds(100))
    /// ```
    ///
    /// - Parameters:
    ///   - tracer: Where spans go: by default the tracer bootstrapped in `InstrumentationSystem`
    ///     when the observer is made.
    ///   - minimumDuration: A construction shorter than this leaves no span, unless it failed or
    ///     a construction below it left one (which keeps its parents, so its trace stays whole).
    ///     Its span is then started when it ends, placed where it started. `.zero`, the default,
    ///     keeps every span and starts it when the construction starts. A startup, built once,
    ///     always leaves its whole tree.
    public init(tracer: any Tracer = InstrumentationSystem.tracer, minimumDuration: Duration = .zero) {
        self.tracer = tracer
        self.minimumDuration = minimumDuration
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
        TracedBinding(labels: labels(of: key, scope: scope), observer: self)
    }

    private func labels(of key: BindingKey, scope: Scope) -> Labels {
        let labelsKey = Labels.Key(key: key, scope: scope)
        if let known = labels.withLock({ $0[labelsKey] }) { return known }
        let description = key.description
        var attributes = SpanAttributes()
        attributes["objection.key"] = description
        attributes["objection.scope"] = scope.description
        // A place for each construction's id, so that setting it does not grow the storage.
        attributes[Self.constructionAttribute] = Int64(0)
        let made = Labels(name: "construct \(description)", attributes: attributes)
        labels.withLock { $0[labelsKey] = made }
        return made
    }

    /// The span of the startup `id` names, if it is one still open.
    private func openStartup(_ id: ObservedConstruction.ID?) -> ConstructionSpan? {
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
        var attributes = SpanAttributes()
        attributes["objection.singletons"] = singletons
        let span = ConstructionSpan(
            name: Self.startupOperationName,
            attributes: attributes,
            constructionID: nil,
            tracer: tracer,
            parent: .context(.current ?? .topLevel),
            start: .now,
            minimumDuration: .zero,
            keepsDescendants: true
        ).startedUnlessDeferred()
        startups.withLock { $0[id] = span }
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
        // `duration` runs from before this span's start: its end is no earlier than its singletons'.
        startups.withLock { $0.removeValue(forKey: id) }?.end(after: duration, error: error)
    }
}
