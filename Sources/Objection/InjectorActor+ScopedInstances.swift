/// Scoped instances, one per request scope: their slots. Their step is
/// SynchronousResolver+Scoped.swift.
extension InjectorActor {
    /// The slot of `binding`, a scoped binding, in this request scope; `nil` when this injector
    /// is not a request scope.
    nonisolated func slot(for binding: Binding) -> ScopedSlot? {
        request?.slot(for: binding)
    }
}
