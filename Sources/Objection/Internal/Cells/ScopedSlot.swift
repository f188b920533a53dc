/// One slot of a ``RequestState``.
struct ScopedSlot: CellAccess {
    let storage: RequestState
    let index: Int

    func withState<R>(_ body: (inout CellState) -> R) -> R {
        storage.withState(at: index, body)
    }
}
