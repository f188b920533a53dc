/// One slot of a ``RequestState``.
struct ScopedSlot: CellAccess {
    let storage: RequestState
    let index: Int

    /// A scoped instance is built by a task of its request.
    var isBuiltByCallers: Bool { true }

    func withState<R>(_ body: (inout CellState) -> R) -> R {
        storage.withState(at: index, body)
    }
}
