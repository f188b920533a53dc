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

    /// The built value, or the construction in flight joined with the join counted, read under
    /// one lock (``CellState/join(as:)``): for a caller outside any construction, which can close
    /// no cycle. Not generic, so that no type metadata is looked up per call.
    func join(as key: BindingKey) -> CellState.Claim<Never>? {
        state.withLock { $0.join(as: key) }
    }

    /// The value, built once by `start` — which runs the construction in another task
    /// (``startDetached(_:build:refusing:)``) — and shared by every caller that asks meanwhile.
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
            switch claimToStart(as: key) {
            case .built(let box):
                return CellValue.unwrap(box, as: T.self)
            case .build(let (claimed, shared)):
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
