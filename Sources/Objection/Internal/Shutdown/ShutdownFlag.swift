import Synchronization

/// Whether an injector has started shutting down; read on every `get`, so it is a single atomic
/// load. Stored in the injector itself, not behind a reference of its own.
struct ShutdownFlag: ~Copyable, Sendable {
    private let flag = Atomic<Bool>(false)

    init() {}

    var isSet: Bool { load() }

    func load() -> Bool { flag.load(ordering: .acquiring) }

    func set() {
        flag.store(true, ordering: .releasing)
    }
}
