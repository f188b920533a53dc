import Synchronization

/// Whether an injector has been shut down; read on every `get`, so it is a single atomic load.
@usableFromInline
final class Lifecycle: Sendable {
    private let shutDown = Atomic<Bool>(false)

    init() {}

    @inlinable
    var isShutDown: Bool { load() }

    @usableFromInline
    func load() -> Bool { shutDown.load(ordering: .acquiring) }

    func markShutDown() {
        shutDown.store(true, ordering: .releasing)
    }
}

/// The cache slots of a request scope's scoped instances, created on first use.
@usableFromInline
final class ScopedCells: Sendable {
    private let cells = Mutex<[ObjectIdentifier: SingletonCell]>([:])

    init() {}

    /// The slot for `binding`, created if needed.
    @usableFromInline
    func cell(for binding: Binding) -> SingletonCell {
        cells.withLock { cells in
            if let cell = cells[ObjectIdentifier(binding)] { return cell }
            let cell = SingletonCell()
            cells[ObjectIdentifier(binding)] = cell
            return cell
        }
    }

    /// The slot for `binding` if it exists.
    @usableFromInline
    func existingCell(for binding: Binding) -> SingletonCell? {
        cells.withLock { $0[ObjectIdentifier(binding)] }
    }

    /// Forgets every slot, releasing the values they hold.
    func removeAll() {
        let released = cells.withLock { cells in
            defer { cells = [:] }
            return cells
        }
        for cell in released.values { cell.clear() }
    }
}

/// One built instance to dispose, and how.
struct Disposal: Sendable {
    let key: BindingKey
    let dispose: @Sendable () async throws -> Void
}
