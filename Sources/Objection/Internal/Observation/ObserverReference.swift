/// An injector's ``InjectionObserver`` and what it asked for, held by reference: a root makes one,
/// and its request scopes, children and background disposals share it.
///
/// An observer is an existential of any size, and copying one goes through its type's value
/// witnesses; a request scope that inherited it by value copied it when opened and again on the
/// way to each `get`. Shared by reference, handing it on is a retain.
@usableFromInline final class ObserverReference: Sendable {
    let observer: any InjectionObserver
    /// ``InjectionObserver/observesSuccesses``, asked once.
    let observesSuccesses: Bool
    /// ``InjectionObserver/observesScopes``, asked once.
    let observesScopes: Bool

    init(_ observer: any InjectionObserver) {
        self.observer = observer
        self.observesSuccesses = observer.observesSuccesses
        self.observesScopes = observer.observesScopes
    }

    /// Tells the observer's ``BindingObserver`` for `binding` that `construction` starts below
    /// `parent`; answers what hears its ending.
    ///
    /// The binding observer is asked for the first time the binding is built and kept with it.
    /// One reference serves a whole hierarchy — its children, its scopes and the roots derived
    /// from it — and a binding belongs to one hierarchy's tables, so what it keeps is this
    /// reference's observer's.
    func constructionStarted(
        _ construction: ObservedConstruction,
        of binding: Binding,
        parent: (any ConstructionObserver)?
    ) -> any ConstructionObserver {
        if let started = binding.preparedObserver.withInstance({
            $0.observer.constructionStarted(construction, parent: parent)
        }) {
            return started
        }
        return binding.preparedObserver
            .instance { Prepared(observer.bindingObserver(for: binding.key, scope: binding.scope)) }
            .observer.constructionStarted(construction, parent: parent)
    }

    /// A binding observer kept with its binding.
    final class Prepared: Sendable {
        let observer: any BindingObserver

        init(_ observer: any BindingObserver) {
            self.observer = observer
        }
    }
}
