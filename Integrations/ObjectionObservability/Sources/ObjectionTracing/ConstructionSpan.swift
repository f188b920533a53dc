import Objection
import Synchronization
import Tracing

/// The span of one construction, or of one startup: started when it starts, or — below a
/// ``TracingObserver`` with a minimum duration — only once it has shown it is worth keeping: it
/// took at least that long, it failed, or a span below it is kept and needs it as its parent.
///
/// A span started late is placed where the construction happened: its start is the
/// construction's, read once from the continuous clock, and a child's is placed from its parent's
/// start, so a child starts no earlier and ends no later than its parent whatever the clocks did.
///
/// ```swift
/// let span = ConstructionSpan(name: "construct Database", attributes: attributes, constructionID: 7,
///                             tracer: tracer, parent: .context(.current ?? .topLevel),
///                             start: construction.start, minimumDuration: .zero,
///                             keepsDescendants: false)
/// span.constructionFinished(construction, duration: .milliseconds(3))
/// ```
final class ConstructionSpan: ConstructionObserver {
    /// What a span is started below.
    enum Parent: Sendable {
        /// The span of the construction, or the startup, that needed this one.
        case span(ConstructionSpan)
        /// The context of the task that asked: its span, if it has one.
        case context(ServiceContext)
    }

    private enum State {
        /// Not started: nothing has needed the span yet.
        case pending
        case started(StartedSpan)
        /// Ended without a span; one is made at once if a child asks for it later.
        case skipped(after: Duration)
        /// Ended; what a child that asks for it later is placed below.
        case ended(Placement)
    }

    /// A span and where it starts. (Structs, not tuples: a tuple holding an existential is
    /// copied through the runtime's generic tuple metadata on every use.)
    private struct StartedSpan {
        let span: any Span
        let start: WallClockInstant
    }

    /// What a child's span is placed by: the context it starts in and its parent's start.
    private struct Placement {
        let context: ServiceContext
        let start: WallClockInstant
    }

    private let name: String
    private let attributes: SpanAttributes
    private let constructionID: Int64?
    private let tracer: any Tracer
    private let parent: Parent
    /// When the construction started, on the continuous clock.
    private let start: ContinuousClock.Instant
    private let minimumDuration: Duration
    /// Whether the spans below this one are all kept, whatever their duration: a startup's.
    let keepsDescendants: Bool
    private let state = Mutex(State.pending)

    /// A span not yet started; ``started()`` starts it.
    ///
    /// - Parameters:
    ///   - name: The span's operation name.
    ///   - attributes: Its attributes, set when it starts: shared by a binding's spans.
    ///   - constructionID: Set as `objection.construction` when it starts, if any.
    ///   - tracer: Where it goes.
    ///   - parent: What it is started below.
    ///   - start: When the construction started.
    ///   - minimumDuration: A construction that ends sooner without failing, and that nothing below
    ///     needed a span of, leaves none; `.zero` keeps every span.
    ///   - keepsDescendants: Whether the spans below this one are all kept.
    init(
        name: String,
        attributes: SpanAttributes,
        constructionID: Int64?,
        tracer: any Tracer,
        parent: Parent,
        start: ContinuousClock.Instant,
        minimumDuration: Duration,
        keepsDescendants: Bool
    ) {
        self.name = name
        self.attributes = attributes
        self.constructionID = constructionID
        self.tracer = tracer
        self.parent = parent
        self.start = start
        self.minimumDuration = minimumDuration
        self.keepsDescendants = keepsDescendants
    }

    /// This span once started, for one that keeps every span: started now, when it happens.
    func startedUnlessDeferred() -> ConstructionSpan {
        if minimumDuration <= .zero { placement() }
        return self
    }

    func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
        end(after: duration, error: nil)
    }

    func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
        end(after: duration, error: error)
    }

    /// Ends the span `duration` after its start, recording `error` if there is one; a span not
    /// started is started first if it is to be kept.
    func end(after duration: Duration, error: (any Error)?) {
        let duration = max(duration, .zero)
        if error != nil || duration >= minimumDuration { placement() }
        let ending: StartedSpan? = state.withLock { state in
            switch state {
            case .pending:
                state = .skipped(after: duration)
                return nil
            case .started(let started):
                state = .ended(Placement(context: started.span.context, start: started.start))
                return started
            case .skipped, .ended:
                return nil
            }
        }
        guard let ending else { return }
        let end = ending.start.advanced(by: duration)
        if let error {
            // What may be shown of it: a provider's error may carry a connection string or a
            // token in its description, which a tracer's exporter would ship with the span.
            let loggable = LoggableError(error)
            ending.span.recordError(loggable, attributes: ["error.type": .string(loggable.typeName)], at: end)
            ending.span.setStatus(SpanStatus(code: .error))
        }
        ending.span.end(at: end)
    }

    /// The context a child's span starts in and this span's start, starting the span (and those
    /// above it) if it has not started: a kept child needs its parent kept.
    @discardableResult
    private func placement() -> Placement {
        // Always the child's lock, then its parent's: never the other way, so never a deadlock.
        state.withLock { state in
            switch state {
            case .started(let started):
                return Placement(context: started.span.context, start: started.start)
            case .ended(let placement):
                return placement
            case .pending:
                let started = startSpan()
                state = .started(started)
                return Placement(context: started.span.context, start: started.start)
            case .skipped(let duration):
                // Asked for after it ended: a child that outlived it. Kept, ended where it ended.
                let started = startSpan()
                started.span.end(at: started.start.advanced(by: duration))
                let placement = Placement(context: started.span.context, start: started.start)
                state = .ended(placement)
                return placement
            }
        }
    }

    private func startSpan() -> StartedSpan {
        let context: ServiceContext
        let wallStart: WallClockInstant
        switch parent {
        case .span(let parent):
            let placed = parent.placement()
            context = placed.context
            wallStart = placed.start.advanced(by: start - parent.start)
        case .context(let parentContext):
            context = parentContext
            wallStart = WallClockInstant(start)
        }
        let span = tracer.startSpan(name, context: context, ofKind: .internal, at: wallStart)
        var attributes = self.attributes
        if let constructionID { attributes[TracingObserver.constructionAttribute] = constructionID }
        // One update, and no growing dictionary when the tracer set nothing: a span's attributes
        // are read and written whole each time.
        span.updateAttributes { current in
            if current.isEmpty { current = attributes } else { current.merge(attributes) }
        }
        return StartedSpan(span: span, start: wallStart)
    }
}
