/// A place that holds one ``CellState`` and the lock guarding it: a ``CacheCell`` of its own, or
/// a slot of a request scope's ``RequestState``.
///
/// The operations every cache needs — read, claim, end a construction, wait for one — are written
/// once here, over `withState`, and act on what a transition returns only after the lock is
/// released.
protocol CellAccess: Sendable {
    /// Runs `body` with exclusive access to the state.
    func withState<R>(_ body: (inout CellState) -> R) -> R
}

extension CellAccess {
    /// The built value, if any. `T` must be the type of the binding that owns the cell.
    func value<T: Sendable>(as type: T.Type) -> T? {
        withState { $0.value }.map { CellValue.unwrap($0, as: T.self) }
    }

    var isBuilt: Bool { withState { $0.value } != nil }

    /// The construction in flight, if it has been named (see ``CellState/construction``).
    var construction: Construction? { withState { $0.construction } }

    /// See ``CellState/claim(as:)``.
    func claim(as key: BindingKey) -> CellState.Claim {
        withState { $0.claim(as: key) }
    }

    /// See ``CellState/claimInPlace()``.
    func claimInPlace() -> CellState.InPlaceClaim {
        withState { $0.claimInPlace() }
    }

    /// Stores `value`, built in place by the caller of ``claimInPlace()``, and hands it to the
    /// waiters.
    func completeInPlace<T: Sendable>(_ value: T) {
        let built = CellValue.wrap(value)
        withState { $0.complete(built) }?.finish(.success(built))
    }

    /// Stores nothing and hands `error` to the waiters of the construction the caller of
    /// ``claimInPlace()`` started; the next caller builds again.
    func failInPlace(with error: any Error) {
        withState { $0.reset() }?.finish(.failure(error))
    }

    /// Stores `value`, built by `construction`, and hands it to the waiters — unless the
    /// construction was given up meanwhile (see ``fail(_:with:)``): then nothing is stored,
    /// and the caller gets `false`.
    @discardableResult
    func complete<T: Sendable>(_ value: T, of construction: Construction) -> Bool {
        let built = CellValue.wrap(value)
        let ending = withState { $0.end(construction, storing: built) }
        ending.outcome?.finish(.success(built))
        return ending.wasCurrent
    }

    /// Stores nothing and hands `error` to the waiters of `construction`, if it is still the one
    /// in flight; the next caller builds again. Used both when it failed and to give it up (a
    /// startup deadline), in which case its late value is refused by
    /// ``complete(_:of:)``.
    func fail(_ construction: Construction, with error: any Error) {
        withState { $0.end(construction, storing: nil) }.outcome?.finish(.failure(error))
    }

    /// Gives up the claimant's construction without an outcome: the waiters claim again. Used
    /// when a claimant building in place was cancelled, or its synchronous attempt must suspend.
    func abandon() {
        withState { $0.reset() }?.finish(.success(nil))
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
    /// (`waiter`), and refuses one that would close a cycle.
    ///
    /// - Returns: The value, or `nil` when the construction was given up: claim again.
    nonisolated(nonsending) static func wait(
        for construction: Construction,
        outcome: SharedOutcome<Value?>,
        waiter: Construction?,
        path: @autoclosure () -> [BindingKey]
    ) async throws -> Value? {
        construction.recordJoin()
        guard let waiter else { return try await outcome.value() }
        if let cycle = WaitGraph.recordWait(of: waiter, on: construction) {
            throw InjectionError.circularDependency(cycle: cycle, path: path())
        }
        defer { WaitGraph.endWait(of: waiter, on: construction) }
        return try await outcome.value()
    }
}

/// The cell of one singleton (its value belongs to the injector that declares the binding) or of
/// one ``Lazy``.
@usableFromInline
final class CacheCell: CellAccess {
    private let state = Lock(CellState())

    init() {}

    func withState<R>(_ body: (inout CellState) -> R) -> R {
        state.withLock(body)
    }

    /// The built value, if any: the singleton hit, read without suspending. `T` must be the type
    /// of the binding that owns the cell.
    @inlinable
    func value<T: Sendable>(as type: T.Type) -> T? {
        builtBox().map { CellValue.unwrap($0, as: T.self) }
    }

    @usableFromInline
    func builtBox() -> (any AnyObject & Sendable)? {
        state.withLock { $0.value }
    }

    /// The built value, or the outcome of the construction in flight with the join counted, read
    /// under one lock (``CellState/readOrJoin(as:)``): for a caller outside any construction,
    /// which can close no cycle. Not generic, so that no type metadata is looked up per call.
    @usableFromInline
    func readOrJoin(as key: BindingKey) -> SingletonReading {
        state.withLock { $0.readOrJoin(as: key) }
    }

    /// The value, built once by `start` — which runs the construction in another task and ends
    /// it with ``complete(_:of:)`` or ``fail(_:with:)`` — and shared by every caller that asks meanwhile.
    /// A cancelled caller leaves with `CancellationError` while the construction carries on.
    ///
    /// - Parameters:
    ///   - waiter: The construction the caller runs inside, if any (see ``CellState/wait``).
    ///   - start: Starts the construction; if it throws, the construction fails with its error.
    func sharedValue<T: Sendable>(
        as type: T.Type,
        key: BindingKey,
        waiter: Construction? = nil,
        path: @autoclosure () -> [BindingKey] = [],
        start: (Construction) throws -> Void
    ) async throws -> T {
        while true {
            let construction: Construction
            let outcome: SharedOutcome<CellState.Value?>
            switch withState({ $0.claimShared(as: key) }) {
            case .built(let box):
                return CellValue.unwrap(box, as: T.self)
            case .start(let claimed, let shared):
                do { try start(claimed) } catch {
                    fail(claimed, with: error)
                    throw error
                }
                (construction, outcome) = (claimed, shared)
            case .wait(let inFlight, let shared):
                (construction, outcome) = (inFlight, shared)
            }
            if let box = try await CellState.wait(for: construction, outcome: outcome, waiter: waiter, path: path()) {
                return CellValue.unwrap(box, as: T.self)
            }
        }
    }
}
