/// What the asynchronous driver does after a step that did not produce the value.
@usableFromInline
enum DriverStop: Error {
    /// Throw this error.
    case failed(any Error)
    /// A construction is in flight — another caller's, or the singleton construction the step
    /// has just started: wait for its outcome, then step again.
    case wait(ConstructionWait)
    /// Nothing is at hand: build the value with the asynchronous recipe, suspending.
    case build(PendingBuild)
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
