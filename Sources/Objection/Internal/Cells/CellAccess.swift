/// A place that holds one ``CellState`` and the lock guarding it: a ``CacheCell`` of its own, or
/// a slot of a request scope's ``RequestState``.
///
/// The operations every cache needs — read, claim, end a construction, wait for one — are written
/// once here, over `withState`, and act on what a transition returns only after the lock is
/// released.
protocol CellAccess: Sendable {
    /// Runs `body` with exclusive access to the state.
    func withState<R>(_ body: (inout CellState) -> R) -> R

    /// Whether this cell's value is built by the task of a caller that needs it (a request's,
    /// for a scoped slot) rather than by a task of its own (a ``CacheCell``'s): it decides who a
    /// cancellation belongs to (``end(_:failing:)``).
    var isBuiltByCallers: Bool { get }
}

extension CellAccess {
    /// The built value, if any. `T` must be the type of the binding that owns the cell.
    func value<T: Sendable>(as type: T.Type) -> T? {
        withState { $0.value }.map { CellValue.unwrap($0, as: T.self) }
    }

    var isBuilt: Bool { withState { $0.value } != nil }

    /// The construction in flight, if it has been named (see ``CellState/construction``).
    var construction: Construction? { withState { $0.construction } }

    /// See ``CellState/claimInPlace(as:)``.
    func claimInPlace(as key: BindingKey) -> CellState.Claim<Void> {
        withState { $0.claimInPlace(as: key) }
    }

    /// See ``CellState/claim(as:)``.
    func claim(as key: BindingKey) -> CellState.Claim<Construction> {
        withState { $0.claim(as: key) }
    }

    /// See ``CellState/claimToStart(as:)``.
    func claimToStart(as key: BindingKey) -> CellState.Claim<(Construction, SharedOutcome<CellState.Value?>)> {
        withState { $0.claimToStart(as: key) }
    }

    /// Stores `value`, built by `construction` (`nil`: the caller's build in place), and hands
    /// it to the waiters — unless the construction was given up meanwhile (see
    /// ``fail(_:with:)``): then nothing is stored, and the caller gets `false`.
    @discardableResult
    func complete<T: Sendable>(_ value: T, of construction: Construction?) -> Bool {
        let built = CellValue.wrap(value)
        let ending = withState { $0.end(construction, storing: built) }
        ending.outcome?.finish(.success(built))
        return ending.wasCurrent
    }

    /// Stores nothing and hands `error` to the waiters of `construction`, if it is still the one
    /// in flight; the next caller builds again. Used both when it failed and to give it up (a
    /// startup deadline), in which case its late value is refused by
    /// ``complete(_:of:)``.
    func fail(_ construction: Construction?, with error: any Error) {
        withState { $0.end(construction, storing: nil) }.outcome?.finish(.failure(error))
    }

    /// Gives up `construction` (`nil`: the claimant's, whatever it is) without an outcome, if it
    /// is still the one in flight: the waiters claim again.
    func giveUp(_ construction: Construction?) {
        withState { $0.end(construction, storing: nil) }.outcome?.finish(.success(nil))
    }

    /// The outcome of the construction in flight, to wait for until it ends; `nil` when none is,
    /// or when it is one of `excluded`.
    func outcomeInFlight(excluding excluded: [Construction]) -> SharedOutcome<CellState.Value?>? {
        withState { $0.outcomeInFlight(excluding: excluded) }
    }

    /// Empties the cell, releasing its value outside the lock.
    func clear() {
        let released = withState { $0.clear() }
        _ = released
    }
}

extension CellState {
    /// Waits for the outcome of `construction`, someone else's or one this caller started.
    /// Records the wait in the ``WaitGraph`` when the caller is itself a construction
    /// (`frame`'s), and refuses one that would close a cycle. `frame` is the step that waits,
    /// whose key is `construction`'s.
    ///
    /// - Returns: The value, or `nil` when the construction was given up: claim again.
    nonisolated(nonsending) static func wait(
        for construction: Construction,
        outcome: SharedOutcome<Value?>,
        by frame: ResolutionFrame
    ) async throws -> Value? {
        construction.recordJoin()
        guard let waiter = try WaitGraph.recordWait(of: frame, on: construction) else {
            return try await outcome.value()
        }
        defer { WaitGraph.endWait(of: waiter, on: construction) }
        return try await outcome.value()
    }
}
