import CoreMetrics
import Logging
import Objection
import ObjectionMetrics
import ObjectionTracing
import Prometheus
import Tracing

/// What the server records about its injector, in the process and nowhere else: spans of each
/// cached construction, in an ``InProcessTracer`` that logs the start-up as a tree, and metrics,
/// in a Prometheus registry that `GET /metrics` renders.
///
/// Neither is bootstrapped globally (`InstrumentationSystem`, `MetricsSystem`): each server — and
/// each test server in one test process — has its own.
///
/// ```swift
/// let observability = Observability(logger: logger)
/// let injector = try await InjectorActor(
///     modules: [AppModule(…)],
///     startup: .deferred,
///     observer: observability.observer(alongside: LoggingObserver(logger: logger))
/// )
/// ```
public struct Observability: Sendable {
    /// The spans: the start-up's, and the most recent ones after it.
    public let tracer: InProcessTracer
    /// The metrics, in the Prometheus text format on `GET /metrics`.
    public let registry: PrometheusCollectorRegistry
    private let metricsFactory: PrometheusMetricsFactory

    /// The label of the construction timer, whose buckets are set here.
    static let constructionDuration = "objection_construction_duration"

    /// New, empty records; the start-up's tree will be written to `logger`.
    ///
    /// - Parameter logger: Where the tracer writes the start-up, at `info`.
    public init(logger: Logger) {
        self.tracer = InProcessTracer(logger: logger)
        self.registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // The default buckets start at 5 ms; a request's scoped constructions take microseconds.
        factory.durationHistogramBuckets[Self.constructionDuration] = [
            .microseconds(10), .microseconds(100), .milliseconds(1), .milliseconds(10), .milliseconds(100),
            .seconds(1), .seconds(10),
        ]
        self.metricsFactory = factory
    }

    /// Makes ``tracer`` and the Prometheus factory the process's tracer and metrics factory, for
    /// the framework's `TracingMiddleware` and `MetricsMiddleware`: once per process, as
    /// `main.swift` does (the tests do not; the middleware then records nothing).
    ///
    /// ```swift
    /// let observability = Observability(logger: logger)
    /// observability.bootstrapSystems()
    /// ```
    public func bootstrapSystems() {
        InstrumentationSystem.bootstrap(tracer)
        MetricsSystem.bootstrap(metricsFactory)
    }

    /// The metrics in the Prometheus text format, as `GET /metrics` serves them.
    ///
    /// - Returns: The text, in UTF-8.
    public func prometheusText() -> [UInt8] {
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return bytes
    }

    /// The injector's observer: `others` first, then a `TracingObserver` on ``tracer`` and a
    /// `MetricsObserver` on ``registry``.
    ///
    /// ```swift
    /// let observer = observability.observer(
    ///     alongside: LoggingObserver(logger: logger), tracingAtLeast: .microseconds(100))
    /// ```
    ///
    /// - Parameters:
    ///   - others: Observers that hear the same events, such as a `LoggingObserver`.
    ///   - minimumDuration: The `TracingObserver`'s: constructions quicker than this that did not
    ///     fail and had nothing kept below them leave no span. `.zero` keeps every span.
    ///   - tracing: Whether the `TracingObserver` is among them.
    ///   - metrics: Whether the `MetricsObserver` is among them.
    /// - Returns: One observer that hands each event on to all of them.
    public func observer(
        alongside others: any InjectionObserver...,
        tracingAtLeast minimumDuration: Duration = .zero,
        tracing: Bool = true,
        metrics: Bool = true
    ) -> CombinedObserver {
        var observers = others
        if tracing { observers.append(TracingObserver(tracer: tracer, minimumDuration: minimumDuration)) }
        if metrics { observers.append(MetricsObserver(factory: metricsFactory)) }
        return CombinedObserver(observers)
    }
}
