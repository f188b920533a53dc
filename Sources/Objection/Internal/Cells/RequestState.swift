#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a request scope has that other injectors do not: the values its opener bound
/// (``ScopeValues``) and the cached instances of its scoped bindings, one ``CellState`` per
/// scoped binding, under one lock that also guards the scope's ``ShutdownState`` (see
/// ``ShutdownStateStore``) — all in one allocation, a ``RequestStorage``.
///
/// The cells are the buffer's elements, as many as the ``ScopeLayout`` its injector computed once,
/// so opening a scope allocates that object and nothing else: no table, no dictionary, no array.
/// A scoped binding the layout does not know — a just-in-time type's, or one from modules the
/// scope was opened with — gets a slot appended on first use, in an array of its own.
///
/// Every cell is read and changed under the lock, which lives in the header, at a fixed address;
/// that is what makes the `@unchecked Sendable` sound. Once the scope has ended, no one reads the
/// elements any more (see ``RequestStorage/State/hasEnded``), so the scope releases them without
/// holding the lock, and no deinit runs while it is held.
struct RequestState: @unchecked Sendable {
    private let storage: RequestStorage

    /// Creates the storage of a scope with `values`, with one empty cell per slot of `layout`.
    init(values: ScopeValues, layout: ScopeLayout) {
        let buffer = RequestStorage.create(minimumCapacity: layout.count) { _ in
            RequestStorage.Header(values: values, layout: layout)
        }
        storage = unsafeDowncast(buffer, to: RequestStorage.self)
        storage.withUnsafeMutablePointers { header, cells in
            PlatformLocking.initialize(RequestStorage.lock(in: header))
            cells.initialize(repeating: CellState(), count: layout.count)
        }
    }

    /// The values the scope answers with (see ``RequestStorage/Header/values``).
    var values: ScopeValues {
        storage.withUnsafeMutablePointerToHeader { $0.pointee.values }
    }

    /// Runs `body` with the lock held, on the mutable state and the layout's cells.
    private func withLock<R>(
        _ body: (inout RequestStorage.State, UnsafeMutableBufferPointer<CellState>) -> R
    ) -> R {
        storage.withUnsafeMutablePointers { header, cells in
            let lock = RequestStorage.lock(in: header)
            PlatformLocking.lock(lock)
            defer { PlatformLocking.unlock(lock) }
            let layoutCells = UnsafeMutableBufferPointer(start: cells, count: header.pointee.layout.count)
            return body(&header.pointee.state, layoutCells)
        }
    }

    /// The slot of `binding`, a scoped binding.
    func slot(for binding: Binding) -> ScopedSlot {
        let layout = storage.withUnsafeMutablePointerToHeader { $0.pointee.layout }
        if let index = layout.index(of: binding) { return ScopedSlot(storage: self, index: index) }
        let index = withLock { state, cells in
            if let existing = state.appendedIndices[ObjectIdentifier(binding)] { return existing.index }
            state.appended.append(CellState())
            let index = cells.count + state.appended.count - 1
            state.appendedIndices[ObjectIdentifier(binding)] = (binding, index)
            return index
        }
        return ScopedSlot(storage: self, index: index)
    }

    func withState<R>(at index: Int, _ body: (inout CellState) -> R) -> R {
        withLock { state, cells in
            if state.hasEnded {
                var ended = CellState()
                return body(&ended)
            }
            return index < cells.count ? body(&cells[index]) : body(&state.appended[index - cells.count])
        }
    }

    /// The value bound to `key`, read in place, or a request to leave the synchronous path (which
    /// reports a missing value with its path). Non-optional, so that code not specialised for `T`
    /// needs no metadata for `T?`.
    func value<T: Sendable>(for key: BindingKey, as type: T.Type) throws(SynchronousStop) -> T {
        try storage.withUnsafeMutablePointerToHeader { header throws(SynchronousStop) in
            guard let index = header.pointee.values.index(of: key) else { throw .mustSuspend }
            return try header.pointee.values.value(at: index, as: type)
        }
    }

    /// The outcomes of the constructions in flight now, to wait for until they end.
    func outcomesInFlight(excluding excluded: [Construction]) -> [SharedOutcome<CellState.Value?>] {
        withLock { state, cells in
            // Appended one by one: a scope ends with nothing in flight, and then allocates nothing.
            var outcomes: [SharedOutcome<CellState.Value?>] = []
            guard !state.hasEnded else { return outcomes }
            for index in cells.indices {
                if let outcome = cells[index].outcomeInFlight(excluding: excluded) { outcomes.append(outcome) }
            }
            for index in state.appended.indices {
                if let outcome = state.appended[index].outcomeInFlight(excluding: excluded) {
                    outcomes.append(outcome)
                }
            }
            return outcomes
        }
    }

    /// The generation of a refreshable binding this scope reads: the one it pinned, or the
    /// current one, pinned now until the scope ends (``takePins()``). An ended scope pins
    /// nothing: it reads the current generation, used and released at once.
    func pin(_ generations: Generations) -> Generation? {
        let (generation, isPinned) = withLock { state, _ -> (Generation?, Bool) in
            if let pinned = state.pins.first(where: { $0.generations === generations }) {
                return (pinned.generation, true)
            }
            guard let current = generations.pinCurrent() else { return (nil, true) }
            guard !state.hasEnded else { return (current, false) }
            state.pins.append((generations, current))
            return (current, true)
        }
        if !isPinned, let generation, generation.release(), let disposal = generation.disposal {
            Task.detached { _ = await disposal.run(after: .succeeded, observing: nil) }
        }
        return generation
    }

    /// Runs `body` on the scope's ``ShutdownState``, under the storage's lock (see
    /// ``ShutdownStateStore``).
    func withShutdownState<R>(_ body: (inout ShutdownState) -> R) -> R {
        withLock { state, _ in body(&state.shutdown) }
    }

    /// Ends the scope in one step when it has nothing to wait for or dispose — its shutdown has not
    /// started, nothing was recorded for disposal, no construction is in flight — as most
    /// request scopes end: finishes its shutdown and ends the storage (see
    /// ``RequestStorage/State/hasEnded``). Returns whether it did; the caller then releases the
    /// cells with ``releaseCells()``, outside the lock.
    func endAtOnce() -> Bool {
        withLock { state, cells in
            guard case .running = state.shutdown.phase, !state.shutdown.hasDisposals, !state.hasEnded,
                !cells.contains(where: \.isBuilding), !state.appended.contains(where: \.isBuilding)
            else { return false }
            state.shutdown.phase = .finished
            _ = state.shutdown.close()
            state.hasEnded = true
            return true
        }
    }

    /// Ends the storage and releases its cells; returns the generations it pinned (see
    /// ``releaseCells()``).
    func removeAll() -> [Generation] {
        withLock { state, _ in state.hasEnded = true }
        return releaseCells()
    }

    /// Empties the cells of the ended storage, releasing their values; only the first call does.
    /// The elements are emptied without the lock: once the storage has ended, no one else reads
    /// them (``withState(at:_:)`` hands out a stand-in).
    ///
    /// A construction still in flight (its builder outlived the scope's wait for it: the ending
    /// task was cancelled) ends in the stand-in, which has no waiters. So its waiters are told
    /// here that it was given up: they claim again, and meet the shutdown.
    ///
    /// Returns the generations of refreshable bindings the scope pinned, taken under the same
    /// lock, for the caller to release once the scope's disposals ran.
    func releaseCells() -> [Generation] {
        let taken = withLock { state, _ -> (appended: [CellState], pins: [Generation])? in
            guard state.hasEnded, !state.isReleased else { return nil }
            state.isReleased = true
            defer {
                state.appended = []
                state.pins = []
            }
            return (state.appended, state.pins.isEmpty ? [] : state.pins.map(\.generation))
        }
        guard let taken else { return [] }
        var appended = taken.appended
        storage.withUnsafeMutablePointers { header, cells in
            for index in 0..<header.pointee.layout.count { cells[index].release() }
        }
        for index in appended.indices { appended[index].release() }
        return taken.pins
    }
}
