/// One construction as an injector's ``InjectionObserver`` hears it: it starts, then it finishes
/// or fails. It is the one way the library tells an observer of a construction, whichever path
/// built it: a build that suspends makes one as it starts and ends it as it ends; a build in
/// place holds its start and its ending back in ``ConstructionReports`` and makes one from them
/// when its step returns.
///
/// An observer of successes hears the start at once, through the binding's ``BindingObserver``,
/// and the ending through the ``ConstructionObserver`` that answered it. An observer of failures
/// only hears nothing until the construction fails, and is told no parent: no identities are
/// kept for it.
///
/// ```swift
/// let observation = ConstructionObservation(
///     of: binding, parentID: nil, parentObserver: nil, startOffset: ObservationClock.now(), to: observing)
/// observation.failed(error, to: observing)
/// ```
struct ConstructionObservation: Sendable {
    /// The construction as the observer hears of it. For an observer of failures only, it names
    /// no parent.
    let construction: ObservedConstruction
    /// What hears how it ends: what the binding's ``BindingObserver`` answered as it started, for
    /// an observer of successes; `nil` for an observer of failures only, which hears a failure
    /// itself.
    let observer: (any ConstructionObserver)?

    /// Tells `observing` that a construction of `binding`, inside the one identified by
    /// `parentID` whose ending `parentObserver` hears, started at `startOffset` (see
    /// ``ObservationClock``).
    init(
        of binding: Binding,
        parentID: ObservedConstruction.ID?,
        parentObserver: (any ConstructionObserver)?,
        startOffset: Duration,
        to observing: ObserverReference
    ) {
        guard observing.observesSuccesses else {
            construction = ObservedConstruction(
                id: .next(), subject: binding.observedSubject, parentID: nil, startOffset: startOffset)
            observer = nil
            return
        }
        construction = ObservedConstruction(
            id: .next(), subject: binding.observedSubject, parentID: parentID, startOffset: startOffset)
        observer = observing.constructionStarted(construction, of: binding, parent: parentObserver)
    }

    /// Tells the observer the construction built its value at `endOffset`.
    func finished(at endOffset: Duration = ObservationClock.now()) {
        observer?.constructionFinished(construction, duration: endOffset - construction.startOffset)
    }

    /// Tells the observer the construction threw `error` at `endOffset`; `observing` is the
    /// reference it was started with, whose observer hears a failure itself when it observes
    /// failures only. Not kept in the observation: a request's notes hold one per construction.
    func failed(_ error: any Error, to observing: ObserverReference, at endOffset: Duration = ObservationClock.now()) {
        let duration = endOffset - construction.startOffset
        guard let observer else {
            observing.observer.constructionFailed(construction, duration: duration, error: error)
            return
        }
        observer.constructionFailed(construction, duration: duration, error: error)
    }
}
