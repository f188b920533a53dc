/// Reporting to the ``InjectionObserver``.
extension InjectorActor {
    /// Builds a cached instance of `binding` with `construct`, run at `frame`, telling the
    /// observer, if there is one, of the construction (see ``ConstructionObservation``).
    ///
    /// Without an observer, `construct` gets `frame` itself and nothing else happens.
    nonisolated(nonsending) func observingConstruction<T>(
        of binding: Binding,
        at frame: ResolutionFrame,
        _ construct: nonisolated(nonsending) (ResolutionFrame) async throws -> T
    ) async throws -> T {
        try await observing(startingConstruction(of: binding, at: frame), at: frame, construct)
    }

    /// The observation of a construction of `binding` at `frame` that starts now, made on the
    /// calling task — for a singleton, the task that asked for it, before its own task starts, so
    /// that an observer of successes sees the asker's task-local values (a request's trace
    /// context) as it hears the start, and the duration counts from the ask. `nil` without an
    /// observer.
    nonisolated func startingConstruction(of binding: Binding, at frame: ResolutionFrame) -> ConstructionObservation? {
        guard let observing else { return nil }
        let parent = frame.observedParent
        return ConstructionObservation(
            of: binding, parentID: parent?.id, parentObserver: parent?.observer,
            startOffset: ObservationClock.now(), to: observing)
    }

    /// Builds with `construct` the construction `observation` (see
    /// ``startingConstruction(of:at:)``), telling the observer how it ends; without an
    /// observation, `construct` runs at `frame` and nothing else happens.
    nonisolated(nonsending) func observing<T>(
        _ observation: ConstructionObservation?,
        at frame: ResolutionFrame,
        _ construct: nonisolated(nonsending) (ResolutionFrame) async throws -> T
    ) async throws -> T {
        // Not unwrapped here: a copy of the observation in this frame made every singleton's
        // construction task allocate one more task-allocator slab (Benchmarks/README, "One way
        // to the observer").
        guard observation != nil, let observing else { return try await construct(frame) }
        return try await observed(observation, to: observing, at: frame, construct)
    }

    /// ``observing(_:at:_:)`` with an observation. For an observer of successes, `construct` runs
    /// at a copy of `frame` that names the construction, so that the constructions below name it
    /// as their parent.
    private nonisolated(nonsending) func observed<T>(
        _ observation: ConstructionObservation?,
        to observing: ObserverReference,
        at frame: ResolutionFrame,
        _ construct: nonisolated(nonsending) (ResolutionFrame) async throws -> T
    ) async throws -> T {
        guard let observation else { return try await construct(frame) }
        do {
            let value: T
            if let observer = observation.observer {
                value = try await construct(
                    frame.observed(as: ObservedParent(id: observation.construction.id, observer: observer)))
            } else {
                value = try await construct(frame)
            }
            observation.finished()
            return value
        } catch {
            observation.failed(error, to: observing)
            throw error
        }
    }

    /// Tells the observer, if there is one, that a public `get` of `key` threw `error`. Each
    /// `get` calls it from a `catch` of its own: a wrapping closure slows the singleton hit
    /// (Benchmarks/README, "Why the code is shaped so").
    @usableFromInline nonisolated func reportFailure(of key: BindingKey, _ error: any Error) {
        observing?.observer.resolutionFailed(key, error: error)
    }
}
