/// An injector's ``InjectionObserver`` and what it asked for, held by reference: a root makes one,
/// and its request scopes, children and background disposals share it.
///
/// An observer is an existential of any size, and copying one goes through its type's value
/// witnesses; a request scope that inherited it by value copied it when opened and again on the
/// way to each `get`. Shared by reference, handing it on is a retain.
@usableFromInline
final class ObserverReference: Sendable {
    @usableFromInline let observer: any InjectionObserver
    /// ``InjectionObserver/observesSuccesses``, asked once.
    let observesSuccesses: Bool
    /// ``InjectionObserver/observesScopes``, asked once.
    let observesScopes: Bool

    init(_ observer: any InjectionObserver) {
        self.observer = observer
        self.observesSuccesses = observer.observesSuccesses
        self.observesScopes = observer.observesScopes
    }
}
