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
    /// Keyed by the binding's identity; the binding is kept with its cell so that its address
    /// cannot be reused by another binding while the cell exists.
    private let cells = Lock<[ObjectIdentifier: (binding: Binding, cell: ScopedCell)]>([:])

    init() {}

    /// The slot for `binding`, created if needed.
    @usableFromInline
    func cell(for binding: Binding) -> ScopedCell {
        cells.withLock { cells in
            if let entry = cells[ObjectIdentifier(binding)] { return entry.cell }
            let cell = ScopedCell()
            cells[ObjectIdentifier(binding)] = (binding, cell)
            return cell
        }
    }

    /// The slot for `binding` if it exists.
    @usableFromInline
    func existingCell(for binding: Binding) -> ScopedCell? {
        cells.withLock { $0[ObjectIdentifier(binding)]?.cell }
    }

    /// Every slot that exists now.
    var all: [ScopedCell] { cells.withLock { $0.values.map(\.cell) } }

    /// Forgets every slot, releasing the values they hold.
    func removeAll() {
        let released = cells.withLock { cells in
            defer { cells = [:] }
            return cells
        }
        for entry in released.values { entry.cell.clear() }
    }
}

/// What an injector has built and must dispose, in order of construction.
final class DisposalLog: Sendable {
    private let state = Lock<(entries: [Disposal], isClosed: Bool)>(([], false))

    init() {}

    /// Records `disposal`; `false` once the log is closed, when the caller must dispose now.
    func record(_ disposal: Disposal) -> Bool {
        state.withLock { state in
            guard !state.isClosed else { return false }
            state.entries.append(disposal)
            return true
        }
    }

    /// Closes the log and returns its entries, oldest first.
    func close() -> [Disposal] {
        state.withLock { state in
            state.isClosed = true
            defer { state.entries = [] }
            return state.entries
        }
    }
}

/// One built instance to dispose, and how.
struct Disposal: Sendable {
    let key: BindingKey
    let dispose: @Sendable () async throws -> Void
}
