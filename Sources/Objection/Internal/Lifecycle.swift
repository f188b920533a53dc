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
    private let cells = Lock<[ObjectIdentifier: ScopedCell]>([:])

    init() {}

    /// The slot for `binding`, created if needed.
    @usableFromInline
    func cell(for binding: Binding) -> ScopedCell {
        cells.withLock { cells in
            if let cell = cells[ObjectIdentifier(binding)] { return cell }
            let cell = ScopedCell()
            cells[ObjectIdentifier(binding)] = cell
            return cell
        }
    }

    /// The slot for `binding` if it exists.
    @usableFromInline
    func existingCell(for binding: Binding) -> ScopedCell? {
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
