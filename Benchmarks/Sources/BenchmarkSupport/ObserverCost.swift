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
    static func timedFourTimes() -> Duration {
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
    /// export: a span record per construction (name and attribute strings, kept in a locked table
    /// by id until it ends, its parent looked up there), a per-key timer found in a locked table,
    /// failure counters, and a count of open request scopes.
    public final class RecordingObserver: InjectionObserver {
        struct Span {
            let name: String
            let attributes: [(String, String)]
            /// The parent span's name: what a tracer reads of it (its context) under the lock.
            let parent: String?
            let start: ContinuousClock.Instant
        }

        final class Timer: Sendable {
            let count = Atomic<Int>(0)
            let total = Atomic<Int64>(0)
        }

        /// A key's span name and attributes, made once: describing a type costs microseconds.
        struct Labels {
            let name: String
            let attributes: [(String, String)]
        }

        private let labels = Mutex<[BindingKey: Labels]>([:])
        private let open = Mutex<[ObservedConstruction.ID: Span]>([:])
        private let timers = Mutex<[BindingKey: Timer]>([:])
        private let failures = Atomic<Int>(0)
        private let activeScopes = Atomic<Int>(0)
        /// The spans ended; only their number is kept, as an exporter's queue would drain them.
        private let ended = Atomic<Int>(0)

        public init() {}

        public var observesScopes: Bool { true }

        public func constructionStarted(_ construction: ObservedConstruction) {
            let parent = construction.parentID.flatMap { id in open.withLock { $0[id]?.name } }
            let key = construction.key
            let labels =
                labels.withLock { $0[key] }
                ?? {
                    let made = Labels(
                        name: "construct \(key)",
                        attributes: [("objection.key", key.description), ("objection.scope", "\(construction.scope)")]
                    )
                    self.labels.withLock { $0[key] = made }
                    return made
                }()
            let span = Span(
                name: labels.name,
                attributes: labels.attributes,
                parent: parent,
                start: construction.start
            )
            open.withLock { $0[construction.id] = span }
        }

        public func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
            end(construction)
            let key = construction.key
            let timer =
                timers.withLock { $0[key] }
                ?? {
                    let made = Timer()
                    timers.withLock { $0[key] = made }
                    return made
                }()
            timer.count.add(1, ordering: .relaxed)
            timer.total.add(duration.components.attoseconds / 1_000_000_000, ordering: .relaxed)
        }

        public func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
            end(construction)
            failures.add(1, ordering: .relaxed)
        }

        public func resolutionFailed(_ key: BindingKey, error: any Error) {
            failures.add(1, ordering: .relaxed)
        }

        public func disposed(_ key: BindingKey, duration: Duration, error: (any Error)?) {
            if error != nil { failures.add(1, ordering: .relaxed) }
        }

        public func scopeOpened() { activeScopes.add(1, ordering: .relaxed) }

        public func scopeEnded(_ outcome: ScopeOutcome) { activeScopes.subtract(1, ordering: .relaxed) }

        private func end(_ construction: ObservedConstruction) {
            guard open.withLock({ $0.removeValue(forKey: construction.id) }) != nil else { return }
            ended.add(1, ordering: .relaxed)
        }
    }
}
