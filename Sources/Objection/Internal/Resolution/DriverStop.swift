/// What the asynchronous driver does after a step that did not produce the value. Not copyable:
/// the compiler moves it from the step's slot to the driver, where a copy retained each reference
/// it holds (Benchmarks/README, "Why the code is shaped so").
@usableFromInline enum DriverStop: ~Copyable {
    /// Throw this error.
    case failed(any Error)
    /// A construction is in flight — another caller's, or the singleton construction the step
    /// has just started: wait for its outcome, then step again.
    case wait(ConstructionWait)
    /// A transient the step could not build without suspending: run its asynchronous recipe in
    /// the driver's injector at this frame. Kept apart from `build`, whose payload carries three
    /// references: a graph of closure providers stops here once per object.
    case run(ResolutionFrame)
    /// A cached instance is not at hand: build it with the asynchronous recipe, suspending, and
    /// keep it.
    case build(PendingBuild)
}

/// A construction in flight that a step must wait for (``DriverStop/wait(_:)``).
@usableFromInline struct ConstructionWait: Sendable {
    let construction: Construction
    let outcome: SharedOutcome<CellState.Value?>
    /// The step that waits, whose construction is recorded as the waiter in the ``WaitGraph``;
    /// `nil` for a caller outside any construction, which can close no cycle.
    let waiter: ResolutionFrame?
    /// The value, or `nil` when the construction was given up: step again.
    @usableFromInline nonisolated(nonsending) func value() async throws -> (any AnyObject & Sendable)? {
        guard let waiter else { return try await outcome.value() }
        return try await CellState.wait(for: construction, outcome: outcome, by: waiter)
    }
}

/// A cached value a step could not produce without suspending, to be built by the asynchronous
/// driver and kept (``DriverStop/build(_:)``): its recipe runs in `injector` at `frame`.
@usableFromInline struct PendingBuild: Sendable {
    /// The injector the recipe runs in: the scope for a scoped instance, the declaring injector
    /// for a custom-scoped one.
    let injector: InjectorActor
    let frame: ResolutionFrame
    /// For a scoped instance, the slot claimed for it and the construction claimed there, which
    /// the build ends; `injector` is its scope, and `frame` runs inside the construction.
    let claimed: (slot: ScopedSlot, construction: Construction)?

    /// A build in `injector` at `frame`: `claimed` for a scoped instance, none for a custom-scoped
    /// one.
    init(
        injector: InjectorActor, frame: ResolutionFrame, claimed: (slot: ScopedSlot, construction: Construction)? = nil
    ) {
        self.injector = injector
        self.frame = frame
        self.claimed = claimed
    }
}
