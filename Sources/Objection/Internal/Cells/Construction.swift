import Synchronization

/// One in-flight construction of a cached binding; its identity is a node of the ``WaitGraph``.
final class Construction: Sendable {
    let key: BindingKey
    private let joinCount = Atomic<Int>(0)
    /// For a singleton, the detached task that runs its provider, and whether it was given up,
    /// has ended, or is awaited by a shutdown (``endOfRun()``). A `Mutex`, stored inline, rather
    /// than a ``Lock``, which would allocate once more for every scoped instance of every
    /// request; a scoped instance's construction never takes it.
    private let run = Mutex(Run())

    private struct Run {
        var task: Task<Void, Never>?
        var isGivenUp = false
        var hasEnded = false
        var end: SharedOutcome<CellState.Value?>?
    }

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

    /// Marks the run of this construction's task (or of its starter, if it never started one)
    /// ended: what ``endOfRun()`` answers is finished.
    func endRun() {
        run.withLock { run in
            run.hasEnded = true
            return run.end
        }?.finish(.success(nil))
    }

    /// Whether this construction's task (or its starter, if it never started one) has ended.
    var hasEnded: Bool { run.withLock { $0.hasEnded } }

    /// Finished when this construction's task has ended (``endRun()``), even one given up: what
    /// a shutdown waits for before it disposes the singletons that task may be using. `nil` when
    /// it has ended already.
    func endOfRun() -> SharedOutcome<CellState.Value?>? {
        run.withLock { run in
            guard !run.hasEnded else { return nil }
            if run.end == nil { run.end = SharedOutcome() }
            return run.end
        }
    }

    /// Cancels the task running this construction, which the injector gave up on (a startup
    /// deadline passed); its cell is failed separately.
    func cancel() {
        run.withLock { run in
            run.isGivenUp = true
            return run.task
        }?.cancel()
    }
}
