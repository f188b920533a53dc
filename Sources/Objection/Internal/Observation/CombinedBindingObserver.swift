/// A ``CombinedObserver``'s binding observer: its observers of successes' binding observers, and
/// the order in which a construction's failure reaches them and its observers of failures only —
/// the order the combination was given.
final class CombinedBindingObserver: BindingObserver {
    /// Who hears a construction's failure, in the order the combination was given.
    enum FailureListener: Sendable {
        /// The construction observer of the part at this index.
        case part(Int)
        /// An observer of failures only.
        case ofFailuresOnly(any InjectionObserver)
    }

    private let parts: [any BindingObserver]
    private let failureListeners: [FailureListener]

    init(parts: [any BindingObserver], failureListeners: [FailureListener]) {
        self.parts = parts
        self.failureListeners = failureListeners
    }

    func constructionStarted(
        _ construction: ObservedConstruction,
        parent: (any ConstructionObserver)?
    ) -> any ConstructionObserver {
        // A parent from this combination has one part per binding observer, in the same order.
        let parentParts = (parent as? CombinedConstructionObserver)?.parts
        let started = ConstructionObserverList(count: parts.count) { index in
            parts[index].constructionStarted(construction, parent: parentParts?.observer(at: index))
        }
        return CombinedConstructionObserver(parts: started, failureListeners: failureListeners)
    }
}

/// One construction as a ``CombinedObserver`` follows it: what each of its binding observers
/// answered, each handed its own part as a child's parent.
final class CombinedConstructionObserver: ConstructionObserver {
    let parts: ConstructionObserverList
    private let failureListeners: [CombinedBindingObserver.FailureListener]

    init(parts: ConstructionObserverList, failureListeners: [CombinedBindingObserver.FailureListener]) {
        self.parts = parts
        self.failureListeners = failureListeners
    }

    func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
        parts.forEach { $0.constructionFinished(construction, duration: duration) }
    }

    func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
        for listener in failureListeners {
            switch listener {
            case .part(let index):
                parts.observer(at: index)?.constructionFailed(construction, duration: duration, error: error)
            case .ofFailuresOnly(let observer):
                observer.constructionFailed(construction, duration: duration, error: error)
            }
        }
    }
}
