/// The cell of one singleton (its value belongs to the injector that declares the binding), of a
/// refreshable binding's first generation, or of one ``Lazy`` handle.
final class CacheCell: CellAccess {
    private let state = Lock(CellState())

    init() {}

    /// A singleton's or a handle's value is built by a detached task (``startDetached(_:build:)``).
    var isBuiltByCallers: Bool { false }

    func withState<R>(_ body: (inout CellState) -> R) -> R {
        state.withLock(body)
    }

    /// The built value, if any: the singleton hit, read without suspending. `T` must be the type
    /// of the binding that owns the cell.
    func value<T: Sendable>(as type: T.Type) -> T? {
        builtBox().map { CellValue.unwrap($0, as: T.self) }
    }

    func builtBox() -> (any AnyObject & Sendable)? {
        state.withLock { $0.value }
    }

    /// The built value, or the construction in flight joined with the join counted, read under
    /// one lock (``CellState/join(as:)``): for a caller outside any construction, which can close
    /// no cycle. Not generic, so that no type metadata is looked up per call.
    func join(as key: BindingKey) -> CellState.Claim<Never>? {
        state.withLock { $0.join(as: key) }
    }
}
