/// Hears what an injector does with the instances it caches, so that you can log and measure it
/// without wrapping providers: each construction of a singleton, scoped or custom-scoped instance
/// (started, finished with its duration, or failed with its error), each disposal, and each `get`
/// that throws.
///
/// Every method has an empty default, so an observer implements only what it needs. Methods are
/// called synchronously on the task doing the work; keep them short and never block in them. (A
/// value built after its injector shut down is disposed by a task of its own, which reports it:
/// that ``disposed(_:duration:error:)`` may come after `shutdown()` returned.) An
/// observer costs the resolution path little: instances built with plain function calls (an
/// autowired graph that never suspends) are still built that way, their events held back until
/// the call returns, then delivered in order with the durations measured as they happened.
/// Transient instances are not reported: they are plain function calls on the hot path. Errors
/// are passed as they are; an ``InjectionError`` names types only, a provider's own error is
/// yours to redact.
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

    /// Whether the observer acts on work that succeeds: ``constructionStarted(_:scope:)``,
    /// ``constructionFinished(_:scope:duration:)``, and ``disposed(_:duration:error:)`` without an
    /// error. `true` by default.
    ///
    /// When `false`, the injector neither calls those nor keeps or times anything for them: it
    /// reads the clock once per cached construction and per disposal, for the duration of a
    /// failure, and reports failures as they happen. Failures and ``resolutionFailed(_:error:)``
    /// are always reported. Asked when an injector is created with this observer; request scopes
    /// and derived injectors keep the answer. An observer that only logs failures should say
    /// `false`: in the example server, the work for successes cost about 1 µs of CPU per request.
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
}
