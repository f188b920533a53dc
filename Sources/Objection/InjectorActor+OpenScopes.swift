import Synchronization

/// Counting the request scopes still open, for the drain (`OpenScopes`).
extension InjectorActor {
    /// The injector whose ``openScopes`` count the scopes opened on this one: itself, or for a
    /// scope, its opener's tracker.
    nonisolated var scopeTracker: InjectorActor { trackerAbove ?? self }

    /// Counts a scope opening on this injector in every tracker from its own up; `false`,
    /// counting nothing, when one of them is draining and `isNested` says the opener is not
    /// inside a request in flight counted in that one. The usual case — one tracker, the root,
    /// not draining — is an atomic add and an atomic load.
    nonisolated func countScopeOpening(isNested: (InjectorActor) -> Bool) -> Bool {
        let first = scopeTracker
        first.openScopes.add()
        guard first.openScopes.isDraining || first.parentTracker != nil else { return true }
        var tracker: InjectorActor? = first
        while let current = tracker {
            if current !== first { current.openScopes.add() }
            if current.openScopes.isDraining && !isNested(current) {
                var counted: InjectorActor? = first
                while let undone = counted {
                    undone.openScopes.remove(ObjectIdentifier(self))
                    counted = undone === current ? nil : undone.parentTracker
                }
                return false
            }
            tracker = current.parentTracker
        }
        return true
    }

    /// Counts a scope opened on this injector ending, in every tracker from its own up, and
    /// forgets the scope it was opened in.
    nonisolated func countScopeEnd() {
        forgetOpenedWithin()
        let id = ObjectIdentifier(self)
        let first = scopeTracker
        first.openScopes.remove(id)
        var tracker = first.parentTracker
        while let current = tracker {
            current.openScopes.remove(id)
            tracker = current.parentTracker
        }
    }

    /// Whether a scope opened on this injector counts in `tracker`: `tracker` is its own or above.
    nonisolated func countsScopes(in tracker: InjectorActor) -> Bool {
        var current: InjectorActor? = scopeTracker
        while let candidate = current {
            if candidate === tracker { return true }
            current = candidate.parentTracker
        }
        return false
    }
}
