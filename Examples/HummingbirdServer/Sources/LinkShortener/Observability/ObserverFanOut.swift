import Objection

/// One observer that hands each event to several: an injector takes one observer, and this
/// server has three (logging, tracing, metrics).
///
/// Each observer hears what it asked for: successes only those whose `observesSuccesses` is
/// `true`, scope events only those whose `observesScopes` is, failures every one. Both
/// questions are asked once, here; the fan-out answers `true` to each if any of its observers does.
///
/// ```swift
/// let observer = ObserverFanOut([LoggingObserver(logger: logger), TracingObserver(tracer: tracer), MetricsObserver()])
/// let injector = try await InjectorActor(modules: [AppModule(…)], observer: observer)
/// ```
public struct ObserverFanOut: InjectionObserver {
    private let all: [any InjectionObserver]
    private let ofSuccesses: [any InjectionObserver]
    private let ofScopes: [any InjectionObserver]

    /// An observer that hands each event to `observers`, in their order.
    ///
    /// - Parameter observers: The observers.
    public init(_ observers: [any InjectionObserver]) {
        self.all = observers
        self.ofSuccesses = observers.filter(\.observesSuccesses)
        self.ofScopes = observers.filter(\.observesScopes)
    }

    /// Whether any observer wants successes.
    public var observesSuccesses: Bool { !ofSuccesses.isEmpty }

    /// Whether any observer wants scope events.
    public var observesScopes: Bool { !ofScopes.isEmpty }

    /// Hands the start of `construction` to the observers of successes.
    ///
    /// - Parameter construction: The construction starting.
    public func constructionStarted(_ construction: ObservedConstruction) {
        for observer in ofSuccesses { observer.constructionStarted(construction) }
    }

    /// Hands the end of `construction` to the observers of successes.
    ///
    /// - Parameters:
    ///   - construction: The construction that built its instance.
    ///   - duration: How long it took.
    public func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
        for observer in ofSuccesses { observer.constructionFinished(construction, duration: duration) }
    }

    /// Hands the failure of `construction` to every observer.
    ///
    /// - Parameters:
    ///   - construction: The construction that failed.
    ///   - duration: How long it took.
    ///   - error: What it threw.
    public func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
        for observer in all { observer.constructionFailed(construction, duration: duration, error: error) }
    }

    /// Hands the start of a startup to the observers of successes.
    ///
    /// - Parameters:
    ///   - id: The startup's identity.
    ///   - singletons: How many singletons it builds.
    public func startupStarted(_ id: ObservedConstruction.ID, singletons: Int) {
        for observer in ofSuccesses { observer.startupStarted(id, singletons: singletons) }
    }

    /// Hands the end of a startup to the observers of successes (they heard it start).
    ///
    /// - Parameters:
    ///   - id: The startup's identity.
    ///   - duration: How long it took.
    ///   - error: What ended it early, if anything.
    public func startupFinished(_ id: ObservedConstruction.ID, duration: Duration, error: (any Error)?) {
        for observer in ofSuccesses { observer.startupFinished(id, duration: duration, error: error) }
    }

    /// Hands a disposal to the observers of successes, or to every observer if it failed.
    ///
    /// - Parameters:
    ///   - key: The binding whose instance was disposed.
    ///   - duration: How long it took.
    ///   - error: What it threw, if anything.
    public func disposed(_ key: BindingKey, duration: Duration, error: (any Error)?) {
        for observer in error == nil ? ofSuccesses : all { observer.disposed(key, duration: duration, error: error) }
    }

    /// Hands a failed `get` to every observer.
    ///
    /// - Parameters:
    ///   - key: The key asked for.
    ///   - error: What the caller received.
    public func resolutionFailed(_ key: BindingKey, error: any Error) {
        for observer in all { observer.resolutionFailed(key, error: error) }
    }

    /// Hands the opening of a request scope to the observers of scopes.
    public func scopeOpened() {
        for observer in ofScopes { observer.scopeOpened() }
    }

    /// Hands the end of a request scope to the observers of scopes.
    ///
    /// - Parameter outcome: How the scope's body ended.
    public func scopeEnded(_ outcome: ScopeOutcome) {
        for observer in ofScopes { observer.scopeEnded(outcome) }
    }
}
