#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one allocation of a ``RequestState``: the values, the layout, the lock and the mutable
/// state in the header, the layout's cells as elements.
final class RequestStorage: ManagedBuffer<RequestStorage.Header, CellState> {
    struct Header {
        /// Guards `state` and the elements; initialised in place by ``RequestState``. The first
        /// stored property, so that its address is the header's (see ``lock(in:)``).
        var lock = PlatformLock()
        /// The values the scope answers with: its opener's, over those of the scope it is nested
        /// in. Never changed, so read without the lock.
        let values: ScopeValues
        let layout: ScopeLayout
        var state = State()
    }

    /// The lock in `header`, at the header's own address: `lock` is its first stored property,
    /// which a test checks. Read that way rather than through `withUnsafeMutablePointer(to:)`,
    /// whose closure stayed an unspecialised generic call on every cell access (`perf`, case 5).
    static func lock(in header: UnsafeMutablePointer<Header>) -> UnsafeMutablePointer<PlatformLock> {
        UnsafeMutableRawPointer(header).assumingMemoryBound(to: PlatformLock.self)
    }

    struct State {
        /// Slots appended for bindings outside the layout; slot `layout.count + i` is
        /// `appended[i]`.
        var appended: [CellState] = []
        /// The index of each appended slot, by binding identity; the binding is kept so that its
        /// address cannot be reused while the slot exists.
        var appendedIndices: [ObjectIdentifier: (binding: Binding, index: Int)] = [:]
        /// Set when the scope ends. Every slot then reads as an empty cell whose changes are
        /// dropped: a resolution that took a slot before the end (another task of the request,
        /// still running) finds nothing there, and gives up on the shutdown flag when it claims
        /// the slot, as every claimant checks it.
        var hasEnded = false
        /// Set by the one caller that releases the cells of the ended scope.
        var isReleased = false
        /// The scope's shutdown and what it must dispose (see ``ShutdownStateStore``).
        var shutdown = ShutdownState()
        /// The generation of each refreshable binding this scope read, kept for its whole life:
        /// a few at most, so searched in order.
        var pins: [(generations: Generations, generation: Generation)] = []
    }

    deinit {
        withUnsafeMutablePointers { header, cells in
            _ = cells.deinitialize(count: header.pointee.layout.count)
            PlatformLocking.destroy(RequestStorage.lock(in: header))
        }
    }
}
