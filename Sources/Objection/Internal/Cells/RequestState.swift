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
        /// Set when the scope ends and its cells are released. Every slot then reads as an empty
        /// cell whose changes are dropped: a resolution that took a slot before the end (another
        /// task of the request, still running) finds nothing there, and gives up on the shutdown
        /// flag when it claims the slot, as every claimant checks it.
        var hasEnded = false
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
        slots.withLock { slots in
            guard !slots.hasEnded else {
                var ended = CellState()
                return body(&ended)
            }
            return body(&slots.cells[index])
        }
    }

    /// The value bound to `key`, read in place, or a request to leave the synchronous path (which
    /// reports a missing value with its path). Non-optional, so that code not specialised for `T`
    /// needs no metadata for `T?`.
    func value<T: Sendable>(for key: BindingKey, as type: T.Type) throws(SynchronousStop) -> T {
        guard let index = values.index(of: key) else { throw .mustSuspend }
        return try values.value(at: index, as: type)
    }

    /// The outcomes of the constructions in flight now, to wait for until they end.
    var outcomesInFlight: [SharedOutcome<CellState.Value?>] {
        slots.withLock { slots in
            slots.cells.indices.compactMap { slots.cells[$0].outcomeInFlight() }
        }
    }

    /// Ends the storage unless a construction is in flight, and returns the cells for the caller
    /// to release outside its locks; `nil`, changing nothing, while one is in flight.
    func takeAllUnlessBuilding() -> [CellState]? {
        slots.withLock { slots in
            guard !slots.cells.contains(where: \.isBuilding) else { return nil }
            return Self.end(&slots)
        }
    }

    /// Ends the storage, releasing the cells outside the lock.
    func removeAll() {
        let released = slots.withLock { Self.end(&$0) }
        _ = released
    }

    /// Takes the cells out and marks the storage ended (see ``Slots/hasEnded``): slots handed out
    /// earlier keep working, as empty ones, instead of indexing into an emptied array.
    private static func end(_ slots: inout Slots) -> [CellState] {
        defer {
            slots.cells = []
            slots.hasEnded = true
        }
        return slots.cells
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
