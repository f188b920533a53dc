/// The binding observer of an ``InjectionObserver`` that makes none of its own: it hands each
/// construction to the observer's methods that take an ``ObservedConstruction``, and is its own
/// ``ConstructionObserver``, so that it costs no allocation per construction.
final class ForwardingBindingObserver: BindingObserver, ConstructionObserver {
    private let observer: any InjectionObserver

    init(_ observer: any InjectionObserver) {
        self.observer = observer
    }

    func constructionStarted(
        _ construction: ObservedConstruction,
        parent: (any ConstructionObserver)?
    ) -> any ConstructionObserver {
        observer.constructionStarted(construction)
        return self
    }

    func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
        observer.constructionFinished(construction, duration: duration)
    }

    func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
        observer.constructionFailed(construction, duration: duration, error: error)
    }
}
