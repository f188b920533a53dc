import Objection
import Synchronization

/// What an observer that records everything costs a request: case 5's request (a scope, a
/// handler built from 3 scoped, 5 singleton and 2 transient objects, a disposal) without an
/// observer and with ``RecordingObserver``. Issue #27 allows the observer 10 %.
///
/// Beside them, the floor: the same request without an observer, plus the clock reads an
/// observer that times everything needs — two per construction and two for the disposal, eight —
/// and nothing else. And case 5e: a request that builds nothing cached, which an observer hears
/// only as a scope opened and ended.
public enum ObserverCost {
    /// The case: "no observer" is the baseline of the ratio column.
    ///
    /// - Parameter scale: Divides the operation count: 1 for a real run, large for a smoke run.
    public static func requestScope(_ scale: Int) async throws -> BenchmarkCase {
        let plain = try await warmedUp(modules: [ObjectionGraphs.Requests()], observer: nil)
        let observed = try await warmedUp(modules: [ObjectionGraphs.Requests()], observer: RecordingObserver())
        let silent = try await warmedUp(modules: [ObjectionGraphs.Requests()], observer: SilentObserver())
        return BenchmarkCase(
            "5d. Per request as case 5, without and with an observer that records everything",
            operations: 20_000 / scale,
            contenders: [
                requests("no observer", on: plain, role: .baseline),
                requests("recording observer", on: observed),
                requests("observer that records nothing", on: silent),
                Contender("no observer, 8 clock reads (the floor)") { n in
                    for _ in 0..<n {
                        sink(timedFourTimes())
                        sink(try await plain.withScope { try await $0.get(Handler.self) })
                    }
                },
            ]
        )
    }

    /// A request whose scope builds nothing: its handler needs only singletons and transients
    /// (case 5's three scoped bindings made singletons), so an observer hears the scope open and
    /// end, and no construction.
    public static func requestThatBuildsNothing(_ scale: Int) async throws -> BenchmarkCase {
        let modules: [any Module] = [ObjectionGraphs.Requests(), NothingScoped()]
        let plain = try await warmedUp(modules: modules, observer: nil)
        let observed = try await warmedUp(modules: modules, observer: RecordingObserver())
        return BenchmarkCase(
            "5e. Per request that builds nothing cached (handler of 8 singletons and 2 transients)",
            operations: 20_000 / scale,
            contenders: [
                requests("no observer", on: plain, role: .baseline),
                requests("recording observer", on: observed),
            ]
        )
    }

    /// An injector of `modules` reporting to `observer`, which has served one request.
    static func warmedUp(modules: [any Module], observer: (any InjectionObserver)?) async throws -> InjectorActor {
        let root = try await InjectorActor(modules: modules, observer: observer)
        try await root.withScope { _ = try await $0.get(Handler.self) }
        return root
    }

    /// `name`: requests served by `root`, each a scope that gets the handler.
    static func requests(_ name: String, on root: InjectorActor, role: Contender.Role = .other) -> Contender {
        Contender(name, role: role) { n in
            for _ in 0..<n { sink(try await root.withScope { try await $0.get(Handler.self) }) }
        }
    }

    /// Applied after `ObjectionGraphs.Requests`: its three scoped bindings become singletons.
    public struct NothingScoped: Module {
        public init() {}

        public func configure(_ binder: Binder) {
            binder.bind(RequestContext.self).to(RequestContext.init).asSingleton()
            binder.bind(RequestLogger.self).to(RequestLogger.init).asSingleton()
            binder.bind(UnitOfWork.self).to(UnitOfWork.init).asSingleton()
        }
    }

    /// Four durations, each from two clock reads, as an observer that times three constructions
    /// and a disposal needs them.
    public static func timedFourTimes() -> Duration {
        var elapsed = Duration.zero
        for _ in 0..<4 {
            let start = ContinuousClock.now
            elapsed += .now - start
        }
        return elapsed
    }

    /// Asks for every event and does nothing with it: what the injector's side of observing costs.
    public struct SilentObserver: InjectionObserver {
        public init() {}
        public var observesScopes: Bool { true }
        public func constructionStarted(_ construction: ObservedConstruction) {}
        public func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {}
    }

    /// Does in process what ObjectionTracing's and ObjectionMetrics' observers do, less the
    /// export: a span record per construction (name and attribute strings, its parent's name read
    /// from the parent span), a timer and labels per binding (found in a locked table once per
    /// binding, kept by its binding observer), failure counters, and a count of open request
    /// scopes.
    public final class RecordingObserver: InjectionObserver {
        /// A construction's span: what a tracer's span holds.
        final class Span: ConstructionObserver {
            let binding: RecordedBinding
            /// The parent span's name: what a tracer reads of it (its context).
            let parent: String?
            let start: ContinuousClock.Instant

            init(binding: RecordedBinding, parent: String?, start: ContinuousClock.Instant) {
                self.binding = binding
                self.parent = parent
                self.start = start
            }

            func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
                binding.record(duration)
            }

            func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
                binding.counters.failures.add(1, ordering: .relaxed)
                binding.counters.ended.add(1, ordering: .relaxed)
            }
        }

        final class Counters: Sendable {
            let failures = Atomic<Int>(0)
            let activeScopes = Atomic<Int>(0)
            /// The spans ended; only their number is kept, as an exporter's queue would drain them.
            let ended = Atomic<Int>(0)
        }

        /// A binding's span name, attributes and timer, made once: describing a type costs
        /// microseconds.
        final class RecordedBinding: BindingObserver {
            let name: String
            let attributes: [(String, String)]
            let counters: Counters
            /// The timer: how many constructions, and their total in nanoseconds.
            private let count = Atomic<Int>(0)
            private let total = Atomic<Int64>(0)

            init(name: String, attributes: [(String, String)], counters: Counters) {
                self.name = name
                self.attributes = attributes
                self.counters = counters
            }

            func record(_ duration: Duration) {
                count.add(1, ordering: .relaxed)
                total.add(duration.components.attoseconds / 1_000_000_000, ordering: .relaxed)
                counters.ended.add(1, ordering: .relaxed)
            }

            func constructionStarted(
                _ construction: ObservedConstruction,
                parent: (any ConstructionObserver)?
            ) -> any ConstructionObserver {
                Span(binding: self, parent: (parent as? Span)?.binding.name, start: construction.start)
            }
        }

        private struct LabelsKey: Hashable {
            let key: BindingKey
            let scope: Scope
        }

        private let bindings = Mutex<[LabelsKey: RecordedBinding]>([:])
        private let counters = Counters()

        public init() {}

        public var observesScopes: Bool { true }

        public func bindingObserver(for key: BindingKey, scope: Scope) -> any BindingObserver {
            let labelsKey = LabelsKey(key: key, scope: scope)
            if let known = bindings.withLock({ $0[labelsKey] }) { return known }
            let made = RecordedBinding(
                name: "construct \(key)",
                attributes: [("objection.key", key.description), ("objection.scope", "\(scope)")],
                counters: counters
            )
            bindings.withLock { $0[labelsKey] = made }
            return made
        }

        public func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
            counters.failures.add(1, ordering: .relaxed)
        }

        public func resolutionFailed(_ key: BindingKey, error: any Error) {
            counters.failures.add(1, ordering: .relaxed)
        }

        public func disposed(_ key: BindingKey, duration: Duration, error: (any Error)?) {
            if error != nil { counters.failures.add(1, ordering: .relaxed) }
        }

        public func scopeOpened() { counters.activeScopes.add(1, ordering: .relaxed) }

        public func scopeEnded(_ outcome: ScopeOutcome) { counters.activeScopes.subtract(1, ordering: .relaxed) }
    }
}
