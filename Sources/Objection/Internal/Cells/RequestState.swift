/// What a request scope has that other injectors do not: the values its opener bound
/// (``ScopeValues``) and the cached instances of its scoped bindings, one ``CellState`` per
/// scoped binding, in one array under one lock.
///
/// The array is sized when the scope opens, from the ``ScopeLayout`` its injector computed once,
/// so serving a request builds no table and no dictionary. A scoped binding the layout does not
/// know — a just-in-time type's, or one from modules the scope was opened with — gets a slot
/// appended on first use.
@usableFromInline
final class RequestState: Sendable {
    private struct Slots {
        var cells: [CellState]
        /// Slots appended for bindings outside the layout, by binding identity; the binding is
        /// kept so that its address cannot be reused while the slot exists.
        var appended: [ObjectIdentifier: (binding: Binding, index: Int)] = [:]
    }

    /// The values the scope answers with: its opener's, over those of the scope it is nested in.
    let values: ScopeValues
    private let layout: ScopeLayout
    private let slots: Lock<Slots>

    init(values: ScopeValues, layout: ScopeLayout) {
        self.values = values
        self.layout = layout
        self.slots = Lock(Slots(cells: Array(repeating: CellState(), count: layout.count)))
    }

    /// The slot of `binding`, a scoped binding.
    func slot(for binding: Binding) -> ScopedSlot {
        if let index = layout.index(of: binding) { return ScopedSlot(storage: self, index: index) }
        let index = slots.withLock { slots in
            if let existing = slots.appended[ObjectIdentifier(binding)] { return existing.index }
            slots.cells.append(CellState())
            slots.appended[ObjectIdentifier(binding)] = (binding, slots.cells.count - 1)
            return slots.cells.count - 1
        }
        return ScopedSlot(storage: self, index: index)
    }

    fileprivate func withState<R>(at index: Int, _ body: (inout CellState) -> R) -> R {
        slots.withLock { body(&$0.cells[index]) }
    }

    /// The value bound to `key`, read in place, or a request to leave the synchronous path.
    func value<T: Sendable>(for key: BindingKey, as type: T.Type) throws(SynchronousResolutionUnavailable) -> T {
        guard let index = values.index(of: key) else { throw SynchronousResolutionUnavailable() }
        return try values.value(at: index, as: type)
    }

    /// The constructions in flight now.
    var constructions: [(slot: ScopedSlot, construction: Construction)] {
        slots.withLock { slots in
            slots.cells.indices.compactMap { index in
                slots.cells[index].construction.map { (ScopedSlot(storage: self, index: index), $0) }
            }
        }
    }

    /// Empties every slot unless a construction is in flight, and returns the values for the
    /// caller to release outside its locks; `nil`, emptying nothing, while one is in flight.
    func takeAllUnlessBuilding() -> [CellState.Value]? {
        slots.withLock { slots in
            guard !slots.cells.contains(where: { $0.construction != nil }) else { return nil }
            return Self.empty(&slots)
        }
    }

    /// Empties every slot, releasing the values outside the lock.
    func removeAll() {
        let released = slots.withLock { Self.empty(&$0) }
        _ = released
    }

    /// Empties each built slot in place. The slots keep their places: a resolution that took a
    /// slot before the scope ended (another task of the request, still running) reads or claims
    /// it afterwards, finds it empty and gives up on the shutdown flag, instead of indexing past
    /// the end of an emptied array.
    private static func empty(_ slots: inout Slots) -> [CellState.Value] {
        slots.cells.indices.compactMap { slots.cells[$0].clear() }
    }
}

/// One slot of a ``RequestState``.
struct ScopedSlot: CellAccess {
    let storage: RequestState
    let index: Int

    func withState<R>(_ body: (inout CellState) -> R) -> R {
        storage.withState(at: index, body)
    }
}
