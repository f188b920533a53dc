/// Hears what an injector does with the instances it caches, so that you can log and measure it
/// without wrapping providers: each construction of a singleton, scoped or custom-scoped instance
/// (started, finished with its duration, or failed with its error), each disposal, and each `get`
/// that throws.
///
/// Every method has an empty default, so an observer implements only what it needs. Methods are
/// called synchronously on the task doing the work — and a singleton's start on the task that asked
/// for it, before the singleton's own task runs, so that its task-local values (a request's trace
/// context) are the asker's; keep them short and never block in them. (A value built after its
/// injector shut down is disposed by a task of its own, which reports it: that
/// ``disposed(_:duration:error:)`` may come after `shutdown()` returned.) An observer costs the
/// resolution path little: instances built with plain function calls (an autowired graph that never
/// suspends) are still built that way, their events held back until the call returns, then
/// delivered in order with the durations measured as they happened. Transient instances are not
/// reported: they are plain function calls on the hot path. Errors are passed as they are; an
/// ``InjectionError`` names types only, a provider's own error is yours to redact.
///
/// ```swift
/// struct ConstructionLog: InjectionObserver {
///     let logger: Logger
///     func constructionFinished(_ key: BindingKey, scope: Scope, duration: Duration) {
///         logger.debug("built \(key) (\(scope)) in \(duration)")
///     }
/// }
///
/// let injector = try await InjectorActor(modules: [AppModule()], observer: ConstructionLog(logger: logger))
/// ```
///
/// Children, request scopes and derived injectors report to the observer of the injector they
/// come from.
///
/// An observer that draws the tree of constructions (a tracer) implements the methods that take
/// an ``ObservedConstruction``, which carry an identity and the identity of what needed each
/// construction, and the startup hooks; their defaults forward to the methods that take a key
/// and a scope, so an observer written for those keeps working. Request scopes are reported
/// only to an observer that says so (``observesScopes``).
public protocol InjectionObserver: Sendable {
    /// A cached instance of `key` is about to be built.
    ///
    /// - Parameters:
    ///   - key: The binding being built.
    ///   - scope: Its lifetime.
    func constructionStarted(_ key: BindingKey, scope: Scope)

    /// A cached instance of `key` was built.
    ///
    /// - Parameters:
    ///   - key: The binding built.
    ///   - scope: Its lifetime.
    ///   - duration: How long its provider took, its dependencies included.
    func constructionFinished(_ key: BindingKey, scope: Scope, duration: Duration)

    /// Building a cached instance of `key` threw `error`; nothing was cached.
    ///
    /// - Parameters:
    ///   - key: The binding whose provider failed.
    ///   - scope: Its lifetime.
    ///   - duration: How long the attempt took.
    ///   - error: The provider's error, or the ``InjectionError`` of a dependency.
    func constructionFailed(_ key: BindingKey, scope: Scope, duration: Duration, error: any Error)

    /// An instance of `key` was disposed, successfully when `error` is `nil`.
    ///
    /// - Parameters:
    ///   - key: The binding whose instance was disposed.
    ///   - duration: How long its disposal took.
    ///   - error: What the disposal threw, if anything.
    func disposed(_ key: BindingKey, duration: Duration, error: (any Error)?)

    /// A `get` of `key` threw `error` to its caller.
    ///
    /// - Parameters:
    ///   - key: The key the caller asked for.
    ///   - error: What the caller received.
    func resolutionFailed(_ key: BindingKey, error: any Error)

    /// A cached instance is about to be built: `construction` tells which, its identity and
    /// what needed it. By default, calls ``constructionStarted(_:scope:)``.
    ///
    /// ```swift
    /// func constructionStarted(_ construction: ObservedConstruction) {
    ///     open.withLock { $0[construction.id] = construction.parentID }
    /// }
    /// ```
    ///
    /// - Parameter construction: The construction starting.
    func constructionStarted(_ construction: ObservedConstruction)

    /// The construction `construction` built its instance. By default, calls
    /// ``constructionFinished(_:scope:duration:)``.
    ///
    /// ```swift
    /// func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
    ///     open.withLock { $0[construction.id] = nil }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - construction: The construction, as it was when it started.
    ///   - duration: How long its provider took, its dependencies included.
    func constructionFinished(_ construction: ObservedConstruction, duration: Duration)

    /// The construction `construction` threw `error`; nothing was cached. By default, calls
    /// ``constructionFailed(_:scope:duration:error:)``.
    ///
    /// ```swift
    /// func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
    ///     logger.error("building \(construction) failed after \(duration)")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - construction: The construction, as it was when it started.
    ///   - duration: How long the attempt took.
    ///   - error: The provider's error, or the ``InjectionError`` of a dependency.
    func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error)

    /// What observes the constructions of `key` under `scope`: asked once per binding, the first
    /// time one of its instances is built, and kept with the binding, so that each construction
    /// finds what it needs — its span name, its timer — without a lookup, and keeps its own state
    /// (its span) in what the binding observer answers, without a table of open constructions
    /// (see ``BindingObserver``). Asked only for an observer that ``observesSuccesses``. By
    /// default, a binding observer that calls this observer's ``constructionStarted(_:)``,
    /// ``constructionFinished(_:duration:)`` and ``constructionFailed(_:duration:error:)``.
    ///
    /// ```swift
    /// func bindingObserver(for key: BindingKey, scope: Scope) -> any BindingObserver {
    ///     TimedBinding(timer: Timer(label: "construction", dimensions: [("key", key.description)]))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - key: The binding's key.
    ///   - scope: Its lifetime.
    /// - Returns: What hears each construction of the binding start.
    func bindingObserver(for key: BindingKey, scope: Scope) -> any BindingObserver

    /// A startup is about to build `singletons` singletons — the eager ones, or in
    /// ``Stage/production`` every one — at the injector's creation or in
    /// ``InjectorActor/start(within:)``. Each construction it starts names `id` as its
    /// ``ObservedConstruction/parentID``. Called once per startup of an injector that has
    /// startup singletons — also for a second ``InjectorActor/start(within:)``, whose singletons
    /// are then all built already — on the task that started it, and only for an observer that
    /// ``observesSuccesses``. Does nothing by default.
    ///
    /// ```swift
    /// func startupStarted(_ id: ObservedConstruction.ID, singletons: Int) {
    ///     logger.info("starting \(singletons) singletons")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - id: The startup's identity, from the same series as the constructions'.
    ///   - singletons: How many singletons it builds.
    func startupStarted(_ id: ObservedConstruction.ID, singletons: Int)

    /// The startup `id` ended: every singleton is built when `error` is `nil`. Called once after
    /// each ``startupStarted(_:singletons:)``. Does nothing by default.
    ///
    /// ```swift
    /// func startupFinished(_ id: ObservedConstruction.ID, duration: Duration, error: (any Error)?) {
    ///     logger.info("started in \(duration)")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - id: The startup's identity.
    ///   - duration: How long it took.
    ///   - error: What ended it early, if anything: a provider's error, a deadline, a cancellation.
    func startupFinished(_ id: ObservedConstruction.ID, duration: Duration, error: (any Error)?)

    /// The shutdown of an injector (not a request scope) stopped waiting, and its disposals are
    /// about to run: every request scope it waited for ended and every construction finished
    /// when `error` is `nil`; otherwise its drain deadline passed, and `error`
    /// (``InjectionError/Code/timedOut``) names what was still open or being built. Called once
    /// per shutdown, also by one that does not wait (called from a cancelled task), when its
    /// background drain ends. Does nothing by default.
    ///
    /// ```swift
    /// func drained(duration: Duration, error: InjectionError?) {
    ///     if let error { logger.warning("shutdown drain cut short: \(error)") }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - duration: How long the drain waited.
    ///   - error: What was still open at the deadline, if the deadline passed.
    func drained(duration: Duration, error: InjectionError?)

    /// A request scope was opened (``InjectorActor/withScope(values:_:)`` and the other
    /// `withScope`s), on the task that opened it. Only called when ``observesScopes``. Does
    /// nothing by default.
    ///
    /// ```swift
    /// func scopeOpened() { active.increment() }
    /// ```
    func scopeOpened()

    /// A request scope ended: its body returned or threw (`outcome`) and what it built was
    /// disposed. Called once after each ``scopeOpened()``, on the same task. Does nothing by
    /// default.
    ///
    /// ```swift
    /// func scopeEnded(_ outcome: ScopeOutcome) { active.decrement() }
    /// ```
    ///
    /// - Parameter outcome: How the scope's body ended.
    func scopeEnded(_ outcome: ScopeOutcome)

    /// Whether the observer wants ``scopeOpened()`` and ``scopeEnded(_:)``; `false` by default,
    /// so an observer that does not implement them costs a request scope nothing. Asked once,
    /// when an injector is created with this observer.
    ///
    /// ```swift
    /// struct ScopeGauge: InjectionObserver {
    ///     let active: Meter
    ///     var observesScopes: Bool { true }
    ///     func scopeOpened() { active.increment() }
    ///     func scopeEnded(_ outcome: ScopeOutcome) { active.decrement() }
    /// }
    /// ```
    var observesScopes: Bool { get }

    /// Whether the observer acts on work that succeeds: ``constructionStarted(_:scope:)``,
    /// ``constructionFinished(_:scope:duration:)``, and ``disposed(_:duration:error:)`` without an
    /// error. `true` by default.
    ///
    /// When `false`, the injector neither calls those nor keeps or times anything for them: it
    /// reads the clock once per cached construction and per disposal, for the duration of a
    /// failure, and reports failures as they happen. Failures and ``resolutionFailed(_:error:)``
    /// are always reported. Asked when an injector is created with this observer; request scopes
    /// and derived injectors keep the answer. An observer that only logs failures should say
    /// `false`: the work for successes costs CPU on every request (Benchmarks/README, "Observer cost").
    ///
    /// ```swift
    /// struct FailureLog: InjectionObserver {
    ///     let logger: Logger
    ///     var observesSuccesses: Bool { false }
    ///     func constructionFailed(_ key: BindingKey, scope: Scope, duration: Duration, error: any Error) {
    ///         logger.error("building \(key) failed after \(duration)")
    ///     }
    /// }
    /// ```
    var observesSuccesses: Bool { get }
}

extension InjectionObserver {
    /// Does nothing.
    ///
    /// ```swift
    /// struct Quiet: InjectionObserver {}   // every method has this default
    /// ```
    public func constructionStarted(_ key: BindingKey, scope: Scope) {}
    /// Does nothing.
    ///
    /// ```swift
    /// struct Quiet: InjectionObserver {}   // every method has this default
    /// ```
    public func constructionFinished(_ key: BindingKey, scope: Scope, duration: Duration) {}
    /// Does nothing.
    ///
    /// ```swift
    /// struct Quiet: InjectionObserver {}   // every method has this default
    /// ```
    public func constructionFailed(_ key: BindingKey, scope: Scope, duration: Duration, error: any Error) {}
    /// Does nothing.
    ///
    /// ```swift
    /// struct Quiet: InjectionObserver {}   // every method has this default
    /// ```
    public func disposed(_ key: BindingKey, duration: Duration, error: (any Error)?) {}
    /// Does nothing.
    ///
    /// ```swift
    /// struct Quiet: InjectionObserver {}   // every method has this default
    /// ```
    public func resolutionFailed(_ key: BindingKey, error: any Error) {}
    /// Every event: `true`.
    ///
    /// ```swift
    /// struct Quiet: InjectionObserver {}   // Quiet().observesSuccesses == true
    /// ```
    public var observesSuccesses: Bool { true }
    /// Calls ``constructionStarted(_:scope:)``.
    ///
    /// ```swift
    /// struct Quiet: InjectionObserver {}   // every method has this default
    /// ```
    public func constructionStarted(_ construction: ObservedConstruction) {
        constructionStarted(construction.key, scope: construction.scope)
    }
    /// Calls ``constructionFinished(_:scope:duration:)``.
    ///
    /// ```swift
    /// struct Quiet: InjectionObserver {}   // every method has this default
    /// ```
    public func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
        constructionFinished(construction.key, scope: construction.scope, duration: duration)
    }
    /// Calls ``constructionFailed(_:scope:duration:error:)``.
    ///
    /// ```swift
    /// struct Quiet: InjectionObserver {}   // every method has this default
    /// ```
    public func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
        constructionFailed(construction.key, scope: construction.scope, duration: duration, error: error)
    }
    /// A binding observer that calls ``constructionStarted(_:)``,
    /// ``constructionFinished(_:duration:)`` and ``constructionFailed(_:duration:error:)``.
    ///
    /// ```swift
    /// struct Quiet: InjectionObserver {}   // every method has this default
    /// ```
    public func bindingObserver(for key: BindingKey, scope: Scope) -> any BindingObserver {
        ForwardingBindingObserver(self)
    }
    /// Does nothing.
    ///
    /// ```swift
    /// struct Quiet: InjectionObserver {}   // every method has this default
    /// ```
    public func startupStarted(_ id: ObservedConstruction.ID, singletons: Int) {}
    /// Does nothing.
    ///
    /// ```swift
    /// struct Quiet: InjectionObserver {}   // every method has this default
    /// ```
    public func startupFinished(_ id: ObservedConstruction.ID, duration: Duration, error: (any Error)?) {}
    /// Does nothing.
    ///
    /// ```swift
    /// struct Quiet: InjectionObserver {}   // every method has this default
    /// ```
    public func drained(duration: Duration, error: InjectionError?) {}
    /// Does nothing.
    ///
    /// ```swift
    /// struct Quiet: InjectionObserver {}   // every method has this default
    /// ```
    public func scopeOpened() {}
    /// Does nothing.
    ///
    /// ```swift
    /// struct Quiet: InjectionObserver {}   // every method has this default
    /// ```
    public func scopeEnded(_ outcome: ScopeOutcome) {}
    /// No scope events: `false`.
    ///
    /// ```swift
    /// struct Quiet: InjectionObserver {}   // Quiet().observesScopes == false
    /// ```
    public var observesScopes: Bool { false }
}
