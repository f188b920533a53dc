import Synchronization

/// One in-flight construction of a cached binding; its identity is a node of the ``WaitGraph``.
final class Construction: Sendable {
    let key: BindingKey
    private let joinCount = Atomic<Int>(0)
    /// For a singleton, the detached task that runs its provider, and whether it was given up.
    /// A `Mutex`, stored inline, rather than a ``Lock``, which would allocate once more for every
    /// scoped instance of every request; it is taken at most twice, at start and at a deadline.
    private let run = Mutex<(task: Task<Void, Never>?, isGivenUp: Bool)>((nil, false))

    init(key: BindingKey) {
        self.key = key
    }

    /// How many callers have joined this construction, its starter included.
    var joins: Int { joinCount.load(ordering: .relaxed) }

    func recordJoin() {
        joinCount.add(1, ordering: .relaxed)
    }

    /// Remembers the task running this construction, so that ``cancel()`` can cancel it; one
    /// already cancelled is cancelled at once.
    func attach(_ task: Task<Void, Never>) {
        let isGivenUp = run.withLock { run in
            run.task = task
            return run.isGivenUp
        }
        if isGivenUp { task.cancel() }
    }

    /// The task running this construction, once it has started.
    var task: Task<Void, Never>? { run.withLock { $0.task } }

    /// Cancels the task running this construction, which the injector gave up on (a startup
    /// deadline passed); its cell is failed separately.
    func cancel() {
        run.withLock { run in
            run.isGivenUp = true
            return run.task
        }?.cancel()
    }
}
