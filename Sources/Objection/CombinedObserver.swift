/// Several observers on one injector, each hearing only what it asks for.
///
/// An injector takes one ``InjectionObserver``; a server usually wants several — traces, metrics,
/// a log of failures. `CombinedObserver` forwards each event, in the order given, to the observers
/// that want it: successes and startups to those whose ``InjectionObserver/observesSuccesses``
/// is `true`, scope events to those whose ``InjectionObserver/observesScopes`` is `true`, failures
/// to all. It asks the injector for an event only if one of them wants it, so combining costs
/// nothing for what none of them observes.
///
/// ```swift
/// let injector = try await InjectorActor(
///     modules: [AppModule()],
///     observer: CombinedObserver(TracingObserver(), MetricsObserver(), FailureLog(logger))
/// )
/// ```
public struct CombinedObserver: InjectionObserver {
    private let all: [any InjectionObserver]
    private let ofSuccesses: [any InjectionObserver]
    private let ofScopes: [any InjectionObserver]
    private let ofFailuresOnly: [any InjectionObserver]

    /// Combines `observers`, which hear each event in this order.
    ///
    /// ```swift
    /// let observer = CombinedObserver([TracingObserver(), MetricsObserver()])
    /// ```
    public init(_ observers: [any InjectionObserver]) {
        all = observers
        ofSuccesses = observers.filter(\.observesSuccesses)
        ofScopes = observers.filter(\.observesScopes)
        ofFailuresOnly = observers.filter { !$0.observesSuccesses }
    }

    /// Combines `observers`, which hear each event in this order.
    ///
    /// ```swift
    /// let observer = CombinedObserver(TracingObserver(), MetricsObserver())
    /// ```
    public init(_ observers: any InjectionObserver...) {
        self.init(observers)
    }

    /// Whether any of the observers wants successes.
    ///
    /// ```swift
    /// CombinedObserver(FailureLog(logger)).observesSuccesses   // false
    /// ```
    public var observesSuccesses: Bool { !ofSuccesses.isEmpty }

    /// Whether any of the observers wants scope events.
    ///
    /// ```swift
    /// CombinedObserver(MetricsObserver()).observesScopes   // true
    /// ```
    public var observesScopes: Bool { !ofScopes.isEmpty }

    /// Tells the observers of successes that `construction` started.
    ///
    /// ```swift
    /// observer.constructionStarted(construction)   // the injector calls it
    /// ```
    public func constructionStarted(_ construction: ObservedConstruction) {
        for observer in ofSuccesses { observer.constructionStarted(construction) }
    }

    /// Tells the observers of successes that `construction` built its instance.
    ///
    /// ```swift
    /// observer.constructionFinished(construction, duration: .milliseconds(2))   // the injector calls it
    /// ```
    public func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
        for observer in ofSuccesses { observer.constructionFinished(construction, duration: duration) }
    }

    /// Tells every observer that `construction` threw `error`.
    ///
    /// ```swift
    /// observer.constructionFailed(construction, duration: .zero, error: error)   // the injector calls it
    /// ```
    public func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
        for observer in all { observer.constructionFailed(construction, duration: duration, error: error) }
    }

    /// Each observer of successes' binding observer, combined: one construction's ending reaches
    /// each in order, and a failure reaches every observer, those of failures only included, in
    /// the order given. With one observer of successes and none of failures only, that
    /// observer's own.
    ///
    /// ```swift
    /// let observer = CombinedObserver(TracingObserver(), MetricsObserver())
    /// let forDatabase = observer.bindingObserver(for: BindingKey(Database.self), scope: .singleton)
    /// ```
    public func bindingObserver(for key: BindingKey, scope: Scope) -> any BindingObserver {
        let parts = ofSuccesses.map { $0.bindingObserver(for: key, scope: scope) }
        if parts.count == 1, ofFailuresOnly.isEmpty { return parts[0] }
        var nextPart = 0
        let failureListeners = all.map { observer -> CombinedBindingObserver.FailureListener in
            guard observer.observesSuccesses else { return .ofFailuresOnly(observer) }
            defer { nextPart += 1 }
            return .part(nextPart)
        }
        return CombinedBindingObserver(parts: parts, failureListeners: failureListeners)
    }

    /// Tells the observers of successes that a startup began.
    ///
    /// ```swift
    /// observer.startupStarted(id, singletons: 20)   // the injector calls it
    /// ```
    public func startupStarted(_ id: ObservedConstruction.ID, singletons: Int) {
        for observer in ofSuccesses { observer.startupStarted(id, singletons: singletons) }
    }

    /// Tells the observers of successes that a startup ended.
    ///
    /// ```swift
    /// observer.startupFinished(id, duration: .seconds(1), error: nil)   // the injector calls it
    /// ```
    public func startupFinished(_ id: ObservedConstruction.ID, duration: Duration, error: (any Error)?) {
        for observer in ofSuccesses { observer.startupFinished(id, duration: duration, error: error) }
    }

    /// Tells every observer that a shutdown's drain ended.
    ///
    /// ```swift
    /// observer.drained(duration: .seconds(1), error: nil)   // the injector calls it
    /// ```
    public func drained(duration: Duration, error: InjectionError?) {
        for observer in all { observer.drained(duration: duration, error: error) }
    }

    /// Tells the observers of successes of a disposal, and every observer of a failed one.
    ///
    /// ```swift
    /// observer.disposed(BindingKey(Database.self), duration: .zero, error: nil)   // the injector calls it
    /// ```
    public func disposed(_ key: BindingKey, duration: Duration, error: (any Error)?) {
        for observer in error == nil ? ofSuccesses : all { observer.disposed(key, duration: duration, error: error) }
    }

    /// Tells every observer that a `get` of `key` threw `error`.
    ///
    /// ```swift
    /// observer.resolutionFailed(BindingKey(Database.self), error: error)   // the injector calls it
    /// ```
    public func resolutionFailed(_ key: BindingKey, error: any Error) {
        for observer in all { observer.resolutionFailed(key, error: error) }
    }

    /// Tells the observers of scopes that a request scope opened.
    ///
    /// ```swift
    /// observer.scopeOpened()   // the injector calls it
    /// ```
    public func scopeOpened() {
        for observer in ofScopes { observer.scopeOpened() }
    }

    /// Tells the observers of scopes that a request scope ended with `outcome`.
    ///
    /// ```swift
    /// observer.scopeEnded(.succeeded)   // the injector calls it
    /// ```
    public func scopeEnded(_ outcome: ScopeOutcome) {
        for observer in ofScopes { observer.scopeEnded(outcome) }
    }
}
