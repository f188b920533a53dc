/// Why a resolution step stopped before it had a value: the typed error of every function on the
/// path that does not suspend (``SynchronousResolver``, ``Recipe/synchronous``).
///
/// Typed, and kept to one small payload, so that giving way costs no error box, no `catch is`
/// cast, and no value-witness calls in the recipes of autowired parameter packs, which run this
/// path unspecialised (Benchmarks/README, "The step's stop stays small"). Where the driver must
/// suspend is therefore not carried here but written to the driver's ``StepDriver`` slot.
@usableFromInline
enum SynchronousStop: Error {
    /// Something the plan did not foresee (a singleton emptied meanwhile, another task building a
    /// scoped instance, an override that suspends, a missing request value): the graph built in
    /// place gives way, and the step that started it builds step by step instead, reporting any
    /// problem with its full path.
    case mustSuspend
    /// A construction failed: a provider's error or an ``InjectionError``, thrown on unchanged.
    case failed(any Error)
    /// The driver must suspend where its ``StepDriver/suspension`` slot says.
    case suspended

    /// `error`, thrown as a stop again after passing through a `rethrows` function (the
    /// standard library's `_withUnsafeGuaranteedRef` has no typed form): only a stop can come
    /// through there, and anything else would be a construction's failure.
    @inlinable
    static func rethrown(_ error: any Error) -> SynchronousStop {
        error as? SynchronousStop ?? .failed(error)
    }
}

/// What the asynchronous driver does after a step that did not produce the value.
@usableFromInline
enum DriverStop: Error {
    /// Throw this error.
    case failed(any Error)
    /// Another caller's construction is in flight: wait for its outcome, then step again.
    case wait(ConstructionWait)
    /// Nothing is at hand: build the value with the asynchronous recipe, suspending.
    case build(PendingBuild)
}

/// How the asynchronous driver asks a step (``StepMode/mayWait(_:)``): below which step, and where
/// the step writes what the driver must suspend for before it stops with
/// ``SynchronousStop/suspended``. The slot is the driver's, on its stack, valid during the step.
@usableFromInline
struct StepDriver {
    /// The step the resolution runs below; `nil` for a caller outside any construction. Not
    /// retained: the driver holds it for as long as the step runs, and a retain per `get` showed
    /// in the instruction counts.
    @usableFromInline unowned(unsafe) let parent: ResolutionFrame?
    @usableFromInline let suspension: UnsafeMutablePointer<DriverStop?>

    @inlinable
    init(parent: ResolutionFrame?, suspension: UnsafeMutablePointer<DriverStop?>) {
        self.parent = parent
        self.suspension = suspension
    }

    /// Writes `stop` to the slot; throw what it returns.
    @inlinable @inline(__always)
    func suspend(_ stop: consuming DriverStop) -> SynchronousStop {
        suspension.pointee = stop
        return .suspended
    }
}

/// A construction in flight that a step must wait for (``DriverStop/wait(_:)``).
@usableFromInline
struct ConstructionWait: Sendable {
    let construction: Construction
    let outcome: SharedOutcome<CellState.Value?>
    /// The step that waits, whose construction is recorded as the waiter in the ``WaitGraph``;
    /// `nil` for a caller outside any construction, which can close no cycle.
    @usableFromInline let waiter: ResolutionFrame?

    /// The value, or `nil` when the construction was given up: step again.
    @usableFromInline
    nonisolated(nonsending) func value() async throws -> (any AnyObject & Sendable)? {
        guard let waiter else { return try await outcome.value() }
        return try await CellState.wait(
            for: construction, outcome: outcome, waiter: waiter.construction, path: waiter.keys)
    }
}

/// A value a step could not produce without suspending, to be built by the asynchronous driver
/// (``DriverStop/build(_:)``): its recipe runs in `injector` at `frame`.
@usableFromInline
struct PendingBuild: Sendable {
    /// The injector the recipe runs in: the one asked for a transient, the scope for a scoped
    /// instance, the declaring injector for a custom-scoped one.
    @usableFromInline let injector: InjectorActor
    @usableFromInline let frame: ResolutionFrame
    /// For a scoped instance, the slot claimed for it, which the build ends; `injector` is its
    /// scope, and `frame` runs inside the construction claimed.
    let slot: ScopedSlot?
    /// Whether the value is cached, and its construction told to the observer.
    @usableFromInline let isCached: Bool

    /// A build in `injector` at `frame`; `isCached` for a custom-scoped instance, `slot` for a
    /// scoped one (which is cached).
    @usableFromInline
    init(injector: InjectorActor, frame: ResolutionFrame, slot: ScopedSlot? = nil, isCached: Bool = false) {
        self.injector = injector
        self.frame = frame
        self.slot = slot
        self.isCached = isCached || slot != nil
    }
}
