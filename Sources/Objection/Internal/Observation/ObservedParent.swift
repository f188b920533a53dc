/// An observed construction or startup as the constructions inside it see it: its identity, and
/// what its ``BindingObserver`` answered when it started (`nil` for a startup), handed to them as
/// their parent.
@usableFromInline final class ObservedParent: Sendable {
    let id: ObservedConstruction.ID
    let observer: (any ConstructionObserver)?

    init(id: ObservedConstruction.ID, observer: (any ConstructionObserver)?) {
        self.id = id
        self.observer = observer
    }
}
