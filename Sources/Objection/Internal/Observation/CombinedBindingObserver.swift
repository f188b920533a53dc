/// A ``CombinedObserver``'s binding observer: its observers of successes' binding observers, in
/// order, and its observers of failures only, which hear a construction's failure.
final class CombinedBindingObserver: BindingObserver {
    private let parts: [any BindingObserver]
    private let ofFailuresOnly: [any InjectionObserver]

    init(parts: [any BindingObserver], ofFailuresOnly: [any InjectionObserver]) {
        self.parts = parts
        self.ofFailuresOnly = ofFailuresOnly
    }

    func constructionStarted(
        _ construction: ObservedConstruction,
        parent: (any ConstructionObserver)?
    ) -> any ConstructionObserver {
        // A parent from this combination has one part per binding observer, in the same order.
        let parentParts = (parent as? CombinedConstructionObserver)?.parts
        var started: [any ConstructionObserver] = []
        started.reserveCapacity(parts.count)
        for (index, part) in parts.enumerated() {
            let partParent = parentParts.flatMap { $0.indices.contains(index) ? $0[index] : nil }
            started.append(part.constructionStarted(construction, parent: partParent))
        }
        return CombinedConstructionObserver(parts: started, ofFailuresOnly: ofFailuresOnly)
    }
}

/// One construction as a ``CombinedObserver`` follows it: what each of its binding observers
/// answered, each handed its own part as a child's parent.
final class CombinedConstructionObserver: ConstructionObserver {
    let parts: [any ConstructionObserver]
    private let ofFailuresOnly: [any InjectionObserver]

    init(parts: [any ConstructionObserver], ofFailuresOnly: [any InjectionObserver]) {
        self.parts = parts
        self.ofFailuresOnly = ofFailuresOnly
    }

    func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
        for part in parts { part.constructionFinished(construction, duration: duration) }
    }

    func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
        for part in parts { part.constructionFailed(construction, duration: duration, error: error) }
        for observer in ofFailuresOnly {
            observer.constructionFailed(construction, duration: duration, error: error)
        }
    }
}
