import Synchronization

/// One in-flight construction of a cached binding; its identity is a node of the ``WaitGraph``.
@usableFromInline
final class Construction: Sendable {
    let key: BindingKey
    private let joinCount = Atomic<Int>(0)
    private let abandoned = Atomic<Bool>(false)
    /// For a singleton, the detached task that runs its provider.
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(key: BindingKey) {
        self.key = key
    }

    /// How many callers have joined this construction, its starter included.
    var joins: Int { joinCount.load(ordering: .relaxed) }

    func recordJoin() {
        joinCount.add(1, ordering: .relaxed)
    }

    /// Remembers the task running this construction, so that ``abandon()`` can cancel it.
    func attach(_ task: Task<Void, Never>) {
        self.task.withLock { $0 = task }
    }

    /// Whether the injector gave up on this construction (see ``abandon()``).
    var isAbandoned: Bool { abandoned.load(ordering: .acquiring) }

    /// Gives up on this construction, which missed its startup deadline: cancels its task, and
    /// shutdown no longer waits for it (what it builds after all is disposed at once).
    func abandon() {
        abandoned.store(true, ordering: .releasing)
        task.withLock { $0 }?.cancel()
    }
}
