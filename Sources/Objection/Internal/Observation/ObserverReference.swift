import Synchronization

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
    /// Tells this reference's binding observers from another's in ``Binding/preparedObserver``:
    /// never reused, unlike an address.
    private let serial: UInt64

    private static let serials = Atomic<UInt64>(0)

    init(_ observer: any InjectionObserver) {
        self.observer = observer
        self.observesSuccesses = observer.observesSuccesses
        self.observesScopes = observer.observesScopes
        self.serial = Self.serials.add(1, ordering: .relaxed).newValue
    }

    /// Tells the observer's ``BindingObserver`` for `binding` that `construction` starts below
    /// `parent`; answers what hears its ending.
    ///
    /// The binding observer is asked for the first time the binding is built and kept with it. A
    /// binding shared with an injector that has an observer of its own (a derived injector given
    /// one) keeps the first one it was built for; the other asks its observer each time.
    func constructionStarted(
        _ construction: ObservedConstruction,
        of binding: Binding,
        parent: (any ConstructionObserver)?
    ) -> any ConstructionObserver {
        let kept = binding.preparedObserver.withInstance { prepared in
            prepared.serial == serial ? prepared.observer.constructionStarted(construction, parent: parent) : nil
        }
        if let kept = kept ?? nil { return kept }
        let stored = binding.preparedObserver.instance {
            Prepared(serial: serial, observer: observer.bindingObserver(for: binding.key, scope: binding.scope))
        }
        let chosen =
            stored.serial == serial
            ? stored.observer : observer.bindingObserver(for: binding.key, scope: binding.scope)
        return chosen.constructionStarted(construction, parent: parent)
    }

    /// A binding observer kept with its binding, and the reference it was made for.
    final class Prepared: Sendable {
        let serial: UInt64
        let observer: any BindingObserver

        init(serial: UInt64, observer: any BindingObserver) {
            self.serial = serial
            self.observer = observer
        }
    }
}
