import InMemoryTracing
import Objection
import ObjectionTracing
import Testing
import Tracing

@Suite("TracingObserver: where spans start and end", .timeLimit(.minutes(1)))
struct SpanTimingTests {
    static let key = BindingKey(Int.self)

    /// A construction of `key` started at `start`, below `parent`.
    static func construction(
        _ id: UInt64, below parent: ObservedConstruction? = nil, at start: ContinuousClock.Instant
    ) -> ObservedConstruction {
        ObservedConstruction(id: .init(rawValue: id), key: key, scope: .singleton, parentID: parent?.id, start: start)
    }

    @Test("a child that starts and ends with its parent nests inside it, every time")
    func nestingAtTheEdges() throws {
        let tracer = InMemoryTracer()
        let observer = TracingObserver(tracer: tracer)
        // The edges coincide: any difference in how the two spans are placed shows. Repeated,
        // because placing each span from its own reading of the clocks differs only sometimes.
        for round in 0..<200 {
            let start = ContinuousClock.now
            let parent = Self.construction(UInt64(2 * round + 1), at: start)
            let child = Self.construction(UInt64(2 * round + 2), below: parent, at: start)
            let binding = observer.bindingObserver(for: Self.key, scope: .singleton)
            let parentSpan = binding.constructionStarted(parent, parent: nil)
            let childSpan = binding.constructionStarted(child, parent: parentSpan)
            childSpan.constructionFinished(child, duration: .microseconds(3))
            parentSpan.constructionFinished(parent, duration: .microseconds(3))
            let spans = tracer.popFinishedSpans()
            try #require(spans.count == 2)
            let (inner, outer) = (spans[0], spans[1])
            try #require(inner.parentSpanID == outer.spanID)
            #expect(inner.startInstant.nanosecondsSinceEpoch >= outer.startInstant.nanosecondsSinceEpoch)
            #expect(inner.endInstant.nanosecondsSinceEpoch <= outer.endInstant.nanosecondsSinceEpoch)
            #expect(
                inner.endInstant.nanosecondsSinceEpoch - inner.startInstant.nanosecondsSinceEpoch == 3_000,
                "a span lasts its construction's duration")
        }
    }

    @Test(
        "a span with a duration too long for nanoseconds since the epoch ends at the end of time, not before it starts",
        arguments: [Duration.seconds(10_000_000_000), .seconds(Int64.max), .seconds(Int64.max) * 10]
    )
    func hugeDuration(_ duration: Duration) throws {
        let tracer = InMemoryTracer()
        let observer = TracingObserver(tracer: tracer)
        let construction = Self.construction(1, at: .now)
        observer.bindingObserver(for: Self.key, scope: .singleton)
            .constructionStarted(construction, parent: nil)
            .constructionFinished(construction, duration: duration)
        let span = try #require(tracer.finishedSpans.first)
        #expect(span.endInstant.nanosecondsSinceEpoch == .max)
    }

    @Test("a startup's span starts before and ends after the spans of the singletons it builds")
    func startupContainsItsSingletons() async throws {
        let tracer = InMemoryTracer()
        let injector = try await InjectorActor(modules: [TwentySingletons()], observer: TracingObserver(tracer: tracer))
        let spans = tracer.finishedSpans
        let startup = try #require(spans.first { $0.operationName == TracingObserver.startupOperationName })
        let constructions = spans.filter { $0.operationName.hasPrefix("construct ") }
        #expect(constructions.count == 20)
        for span in constructions {
            #expect(span.startInstant.nanosecondsSinceEpoch >= startup.startInstant.nanosecondsSinceEpoch)
            #expect(span.endInstant.nanosecondsSinceEpoch <= startup.endInstant.nanosecondsSinceEpoch)
        }
        await injector.shutdown()
    }
}
