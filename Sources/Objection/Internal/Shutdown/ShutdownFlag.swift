import Synchronization

/// Whether an injector has started shutting down; read on every `get`, so it is a single atomic
/// load.
@usableFromInline
final class ShutdownFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    init() {}

    @inlinable
    var isSet: Bool { load() }

    @usableFromInline
    func load() -> Bool { flag.load(ordering: .acquiring) }

    func set() {
        flag.store(true, ordering: .releasing)
    }
}

/// Where an injector's ``InjectorActor/shutdown()`` is.
enum ShutdownState: Sendable {
    case running
    /// Disposing. Later callers wait for the outcome, made when the first of them arrives, so
    /// that the usual single shutdown of a request scope allocates nothing for waiters.
    case disposing(SharedOutcome<Void>?)
    case finished
}
