import Metrics
import Objection
import Synchronization

/// Records an injector's work as metrics: how long each cached instance took to build, per key;
/// how many constructions, `get`s and disposals failed; and how many request scopes are open.
///
/// | Metric | Kind | Dimensions |
/// |---|---|---|
/// | `objection_construction_duration` | `Timer` | `key`, `scope` |
/// | `objection_construction_failures` | `Counter` | `key`, `scope` |
/// | `objection_get_failures` | `Counter` | `key` |
/// | `objection_disposal_failures` | `Counter` | `key` |
/// | `objection_request_scopes_active` | `Meter` | — |
///
/// Keys are the application's bindings, a set fixed by its modules, so the dimensions stay few.
/// The metric objects of each key and scope are made once and kept: a key built under two scopes
/// (a singleton that a request scope's modules rebind as scoped) files each construction under the
/// scope it was built in.
///
/// ```swift
/// import ObjectionMetrics
///
/// let injector = try await InjectorActor(
///     modules: [AppModule()],
///     observer: MetricsObserver()   // MetricsSystem.factory, as bootstrapped
/// )
/// ```
public final class MetricsObserver: InjectionObserver {
    /// The prefix of every label; `objection` by default.
    private let prefix: String
    private let factory: any MetricsFactory
    private let activeScopes: Meter
    /// The timer of each key and scope, made on first use.
    private let timers = Mutex<[TimerID: Timer]>([:])
    /// The counters of each key (and scope, for constructions), by name, made on first use.
    private let counters = Mutex<[CounterID: Counter]>([:])

    private struct TimerID: Hashable, Sendable {
        let key: BindingKey
        let scope: Scope
    }

    private struct CounterID: Hashable, Sendable {
        let name: String
        let key: BindingKey
        let scope: Scope?
    }

    /// An observer that records with `factory`.
    ///
    /// ```swift
    /// MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
    /// let observer = MetricsObserver()
    /// ```
    ///
    /// - Parameters:
    ///   - prefix: What every label starts with, before `_`.
    ///   - factory: Where metrics go: by default the factory bootstrapped in `MetricsSystem` when
    ///     the observer is made.
    public init(prefix: String = "objection", factory: any MetricsFactory = MetricsSystem.factory) {
        self.prefix = prefix
        self.factory = factory
        self.activeScopes = Meter(label: "\(prefix)_request_scopes_active", dimensions: [], factory: factory)
    }

    /// Asks for request scopes, to count the open ones.
    ///
    /// ```swift
    /// MetricsObserver().observesScopes   // true
    /// ```
    public var observesScopes: Bool { true }

    /// What records each construction of `key` under `scope`: its timer, found or made once per
    /// binding, records a construction's duration; a failure counts in
    /// `objection_construction_failures`, made on the first failure.
    ///
    /// ```swift
    /// let forDatabase = observer.bindingObserver(for: BindingKey(Database.self), scope: .singleton)
    /// ```
    ///
    /// - Parameters:
    ///   - key: The binding's key.
    ///   - scope: Its lifetime.
    /// - Returns: What records each construction's ending; it keeps nothing per construction.
    public func bindingObserver(for key: BindingKey, scope: Scope) -> any BindingObserver {
        MeasuredBinding(key: key, scope: scope, timer: timer(of: key, scope: scope), observer: self)
    }

    /// Records how long building `construction` took, in the timer of its key and scope; the
    /// injector records through ``bindingObserver(for:scope:)``, which finds the timer once.
    ///
    /// ```swift
    /// observer.constructionFinished(construction, duration: .milliseconds(3))
    /// ```
    ///
    /// - Parameters:
    ///   - construction: The construction that built its instance.
    ///   - duration: How long it took.
    public func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
        bindingObserver(for: construction.key, scope: construction.scope)
            .constructionStarted(construction, parent: nil)
            .constructionFinished(construction, duration: duration)
    }

    /// Counts a failed construction, in the counter of its key and scope.
    ///
    /// ```swift
    /// observer.constructionFailed(construction, duration: .zero, error: failure)
    /// ```
    ///
    /// - Parameters:
    ///   - construction: The construction that failed.
    ///   - duration: How long it took.
    ///   - error: What it threw.
    public func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
        countFailedConstruction(of: construction.key, scope: construction.scope)
    }

    /// Counts a failed construction of `key` under `scope`: failures are rare, so their counter
    /// is made on the first, not with the binding.
    fileprivate func countFailedConstruction(of key: BindingKey, scope: Scope) {
        counter("construction_failures", of: key, scope: scope).increment()
    }

    /// One binding's constructions: its timer, found once, which records each construction's
    /// duration.
    private final class MeasuredBinding: BindingObserver, ConstructionObserver {
        let key: BindingKey
        let scope: Scope
        let timer: Timer
        let observer: MetricsObserver

        init(key: BindingKey, scope: Scope, timer: Timer, observer: MetricsObserver) {
            self.key = key
            self.scope = scope
            self.timer = timer
            self.observer = observer
        }

        func constructionStarted(
            _ construction: ObservedConstruction,
            parent: (any ConstructionObserver)?
        ) -> any ConstructionObserver {
            self
        }

        func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
            timer.record(duration: duration)
        }

        func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
            observer.countFailedConstruction(of: key, scope: scope)
        }
    }

    private func timer(of key: BindingKey, scope: Scope) -> Timer {
        let id = TimerID(key: key, scope: scope)
        return timers.withLock { $0[id] }
            ?? made(in: timers, for: id) {
                Timer(
                    label: "\(prefix)_construction_duration",
                    dimensions: [("key", key.description), ("scope", scope.description)],
                    factory: factory
                )
            }
    }

    /// Counts a `get` that threw.
    ///
    /// ```swift
    /// observer.resolutionFailed(BindingKey(Database.self), error: failure)   // the injector calls it
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key asked for.
    ///   - error: What the caller received.
    public func resolutionFailed(_ key: BindingKey, error: any Error) {
        counter("get_failures", of: key).increment()
    }

    /// Counts a disposal that threw.
    ///
    /// ```swift
    /// observer.disposed(BindingKey(Database.self), duration: .zero, error: nil)   // the injector calls it
    /// ```
    ///
    /// - Parameters:
    ///   - key: The binding whose instance was disposed.
    ///   - duration: How long it took.
    ///   - error: What it threw, if anything.
    public func disposed(_ key: BindingKey, duration: Duration, error: (any Error)?) {
        guard error != nil else { return }
        counter("disposal_failures", of: key).increment()
    }

    /// Counts an open request scope.
    ///
    /// ```swift
    /// observer.scopeOpened()   // the injector calls it
    /// ```
    public func scopeOpened() {
        activeScopes.increment()
    }

    /// Counts a request scope less.
    ///
    /// ```swift
    /// observer.scopeEnded(.succeeded)   // the injector calls it
    /// ```
    ///
    /// - Parameter outcome: How the scope's body ended.
    public func scopeEnded(_ outcome: ScopeOutcome) {
        activeScopes.decrement()
    }

    /// The counter `<prefix>_<name>` of `key`, with the key (and `scope`, if given) as its
    /// dimensions.
    private func counter(_ name: String, of key: BindingKey, scope: Scope? = nil) -> Counter {
        let id = CounterID(name: name, key: key, scope: scope)
        if let existing = counters.withLock({ $0[id] }) { return existing }
        return made(in: counters, for: id) {
            Counter(
                label: "\(prefix)_\(name)",
                dimensions: [("key", key.description)] + (scope.map { [("scope", $0.description)] } ?? []),
                factory: factory
            )
        }
    }

    /// A metric made with `make`, kept in `cache` for `id`: the one stored first when two first
    /// uses make one at once. Made outside the lock: a factory is the application's code.
    private func made<ID: Hashable & Sendable, Metric: Sendable>(
        in cache: borrowing Mutex<[ID: Metric]>,
        for id: ID,
        _ make: () -> Metric
    ) -> Metric {
        let metric = make()
        return cache.withLock { cache in
            if let stored = cache[id] { return stored }
            cache[id] = metric
            return metric
        }
    }
}
