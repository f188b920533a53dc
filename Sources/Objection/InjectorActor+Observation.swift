/// Reporting to the ``InjectionObserver``.
extension InjectorActor {
    /// Builds a cached instance of `binding` with `construct`, run at `frame`, telling the
    /// observer, if there is one, when it starts and how it ends.
    ///
    /// An observer of successes hears an ``ObservedConstruction`` with a new identity, and
    /// `construct` runs at a copy of `frame` that carries it, so that the constructions below
    /// name it as their parent; without an observer, `construct` gets `frame` itself and nothing
    /// else happens.
    nonisolated(nonsending) func observingConstruction<T>(
        of binding: Binding,
        at frame: ResolutionFrame,
        _ construct: nonisolated(nonsending) (ResolutionFrame) async throws -> T
    ) async throws -> T {
        try await observing(startingConstruction(of: binding, at: frame), of: binding, at: frame, construct)
    }

    /// Tells an observer of successes that a construction of `binding` at `frame` starts, on the
    /// calling task — for a singleton, the task that asked for it, before its own task starts, so
    /// that the observer sees the asker's task-local values (a request's trace context). `nil`
    /// for any other observer, or none.
    nonisolated func startingConstruction(of binding: Binding, at frame: ResolutionFrame) -> StartedConstruction? {
        guard observesSuccesses, let observing else { return nil }
        let parent = frame.observedParent
        let construction = ObservedConstruction(
            id: .next(), subject: binding.observedSubject, parentID: parent?.id, startOffset: ObservationClock.now())
        let observer = observing.constructionStarted(construction, of: binding, parent: parent?.observer)
        return StartedConstruction(construction: construction, observer: observer)
    }

    /// Builds with `construct` the construction `started` (see
    /// ``startingConstruction(of:at:)``), telling the observer how it ends; for an observer of
    /// failures only (`started` is `nil`), a failure only.
    nonisolated(nonsending) func observing<T>(
        _ started: StartedConstruction?,
        of binding: Binding,
        at frame: ResolutionFrame,
        _ construct: nonisolated(nonsending) (ResolutionFrame) async throws -> T
    ) async throws -> T {
        guard isObserved else { return try await construct(frame) }
        guard let started else {
            let start = ContinuousClock.now
            do {
                return try await construct(frame)
            } catch {
                reportFailedConstruction(of: binding, startedAt: start, error)
                throw error
            }
        }
        let construction = started.construction
        do {
            let value = try await construct(
                frame.observed(as: ObservedParent(id: construction.id, observer: started.observer)))
            started.observer.constructionFinished(
                construction, duration: ObservationClock.now() - construction.startOffset)
            return value
        } catch {
            started.observer.constructionFailed(
                construction, duration: ObservationClock.now() - construction.startOffset, error: error)
            throw error
        }
    }

    /// When this injector's observer wants failures only, the start of a cached construction on
    /// the synchronous path, for ``reportFailedConstruction(of:startedAt:_:)``; else `nil`: an
    /// observer of successes hears of the construction through its ``ConstructionReports``.
    nonisolated var failureClockStart: ContinuousClock.Instant? {
        isObserved && !observesSuccesses ? .now : nil
    }

    /// Tells the observer, if there is one, that building `binding`, started at `start`, threw
    /// `error`; does nothing when `start` is `nil` (see ``failureClockStart``).
    nonisolated func reportFailedConstruction(
        of binding: Binding,
        startedAt start: ContinuousClock.Instant?,
        _ error: any Error
    ) {
        guard let start, let observer = observing?.observer else { return }
        // An observer of failures only: no identities are kept for it, so no parent is known.
        let construction = ObservedConstruction(
            id: .next(), subject: binding.observedSubject, parentID: nil, startOffset: start - ObservationClock.origin)
        observer.constructionFailed(construction, duration: .now - start, error: error)
    }

    /// Tells the observer, if there is one, that a public `get` of `key` threw `error`. Each
    /// `get` calls it from a `catch` of its own: a wrapping closure slows the singleton hit
    /// (Benchmarks/README, "Why the code is shaped so").
    @usableFromInline
    nonisolated func reportFailure(of key: BindingKey, _ error: any Error) {
        observing?.observer.resolutionFailed(key, error: error)
    }
}
