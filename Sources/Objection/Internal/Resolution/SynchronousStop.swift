/// Why a resolution step stopped before it had a value: the typed error of every function on the
/// path that does not suspend (``SynchronousResolver``, ``Recipe/synchronous``).
///
/// Typed, so that giving way costs no error box and no `catch is` cast. A step asked by a
/// dependency of a graph built in place (``StepMode/inPlace``) stops only with ``mustSuspend`` or
/// ``failed(_:)``; a step asked by the asynchronous driver (``StepMode/mayWait(below:)``) names
/// instead where that driver must suspend (``wait(_:)``, ``build(_:)``), and the driver loops
/// (`InjectorActor.proceed(after:with:as:below:)`).
@usableFromInline
enum SynchronousStop: Error {
    /// Something the plan did not foresee (a singleton emptied meanwhile, another task building a
    /// scoped instance, an override that suspends, a missing request value): the graph built in
    /// place gives way, and the step that started it builds step by step instead, reporting any
    /// problem with its full path.
    case mustSuspend
    /// A construction failed: a provider's error or an ``InjectionError``, thrown on unchanged.
    case failed(any Error)
    /// Another caller's construction is in flight: wait for its outcome, then step again.
    case wait(ConstructionWait)
    /// Nothing is at hand: build the value with the asynchronous recipe, suspending.
    case build(PendingBuild)

    /// `error`, thrown as a stop again after passing through a `rethrows` function (the
    /// standard library's `_withUnsafeGuaranteedRef` has no typed form): only a stop can come
    /// through there, and anything else would be a construction's failure.
    @inlinable
    static func rethrown(_ error: any Error) -> SynchronousStop {
        error as? SynchronousStop ?? .failed(error)
    }
}

/// A construction in flight that a step must wait for (``SynchronousStop/wait(_:)``).
@usableFromInline
struct ConstructionWait: Sendable {
    let construction: Construction
    let outcome: SharedOutcome<CellState.Value?>
    /// The step that waits, whose construction is recorded as the waiter in the ``WaitGraph``;
    /// `nil` for a caller outside any construction, which can close no cycle.
    let waiter: ResolutionFrame?

    /// The value, or `nil` when the construction was given up: step again.
    @usableFromInline
    nonisolated(nonsending) func value() async throws -> (any AnyObject & Sendable)? {
        guard let waiter else { return try await outcome.value() }
        return try await CellState.wait(
            for: construction, outcome: outcome, waiter: waiter.construction, path: waiter.keys)
    }
}

/// A value a step could not produce without suspending, to be built by the asynchronous driver
/// (``SynchronousStop/build(_:)``): its recipe runs in `injector` at `frame`.
@usableFromInline
struct PendingBuild: Sendable {
    /// The injector the recipe runs in: the one asked for a transient, the scope for a scoped
    /// instance, the declaring injector for a custom-scoped one.
    @usableFromInline let injector: InjectorActor
    @usableFromInline let frame: ResolutionFrame
    /// For a scoped instance, the slot claimed for it, which the build ends.
    let scoped: ScopedConstruction?
    /// Whether the value is cached, and its construction told to the observer.
    @usableFromInline let isCached: Bool

    /// A build in `injector` at `frame`; `isCached` for a custom-scoped instance, `scoped` for
    /// a scoped one (which is cached).
    @usableFromInline
    init(injector: InjectorActor, frame: ResolutionFrame, scoped: ScopedConstruction? = nil, isCached: Bool = false) {
        self.injector = injector
        self.frame = frame
        self.scoped = scoped
        self.isCached = isCached || scoped != nil
    }
}
