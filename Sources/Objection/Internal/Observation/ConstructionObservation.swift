/// One construction as an injector's ``InjectionObserver`` hears it: it starts, then it finishes
/// or fails. It is the one way the library tells an observer of a construction, whichever path
/// built it: a build that suspends makes one as it starts and ends it as it ends; a build in
/// place notes its times in ``ConstructionReports``, which makes the observations once the start
/// may be told.
///
/// An observer of successes hears the start at once, through the binding's ``BindingObserver``,
/// and the ending through the ``ConstructionObserver`` that answered it. An observer of failures
/// only is told nothing until the construction fails, and then is told no parent.
///
/// ```swift
/// let observation = ConstructionObservation(
///     of: binding, parentID: nil, parentObserver: nil, startOffset: ObservationClock.now(), to: observing)
/// do {
///     let value = try build()
///     observation.finished()
/// } catch {
///     observation.failed(error, to: observing)
/// }
/// ```
struct ConstructionObservation: Sendable {
    /// The construction as the observer hears of it. For an observer of failures only, it names
    /// no parent.
    let construction: ObservedConstruction
    /// What hears how it ends: what the binding's ``BindingObserver`` answered as it started, for
    /// an observer of successes; `nil` for an observer of failures only, which hears a failure
    /// itself.
    let observer: (any ConstructionObserver)?

    /// A construction of `binding` that started at `startOffset` (see ``ObservationClock``),
    /// inside the one identified by `parentID` whose ending `parentObserver` hears. An observer of
    /// successes is told it started; an observer of failures only is told nothing, and no parent.
    ///
    /// Both are given an identity here: an observation that made it only on a failure, keeping
    /// the binding and the start apart from the construction, cost the observed request paths
    /// 1.8–4.6 % more (Benchmarks/README, "One way to the observer").
    init(
        of binding: Binding,
        parentID: ObservedConstruction.ID?,
        parentObserver: (any ConstructionObserver)?,
        startOffset: Duration,
        to observing: ObserverReference
    ) {
        let observesSuccesses = observing.observesSuccesses
        construction = ObservedConstruction(
            id: .next(), subject: binding.observedSubject, parentID: observesSuccesses ? parentID : nil,
            startOffset: startOffset)
        observer =
            observesSuccesses ? observing.constructionStarted(construction, of: binding, parent: parentObserver) : nil
    }

    /// Tells an observer of successes the construction built its value now; reads no clock for
    /// an observer of failures only.
    func finished() {
        guard observer != nil else { return }
        finished(at: ObservationClock.now())
    }

    /// Tells an observer of successes the construction built its value at `endOffset`.
    func finished(at endOffset: Duration) {
        observer?.constructionFinished(construction, duration: endOffset - construction.startOffset)
    }

    /// Tells the observer the construction threw `error` at `endOffset`. `observing` is the
    /// reference it was made with, whose observer hears the failure itself when it observes
    /// failures only; it is passed, not kept, because keeping it in each of a request's notes
    /// cost `request-scope-recorded` 2.6 % (Benchmarks/README, "One way to the observer").
    func failed(_ error: any Error, to observing: ObserverReference, at endOffset: Duration = ObservationClock.now()) {
        let duration = endOffset - construction.startOffset
        guard let observer else {
            observing.observer.constructionFailed(construction, duration: duration, error: error)
            return
        }
        observer.constructionFailed(construction, duration: duration, error: error)
    }
}
