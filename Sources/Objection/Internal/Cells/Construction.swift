import Synchronization

/// One in-flight construction of a cached binding; its identity is a node of the ``WaitGraph``.
@usableFromInline
final class Construction: Sendable {
    let key: BindingKey
    private let joinCount = Atomic<Int>(0)
    /// For a singleton, the detached task that runs its provider, and whether it was given up.
    /// A `Mutex`, stored inline, rather than a ``Lock``, which would allocate once more for every
    /// scoped instance of every request; it is taken at most twice, at start and at a deadline.
    /// Also whether its provider's cancellation ended it (see ``givenBackByCancellation``).
    private let run = Mutex<(task: Task<Void, Never>?, isGivenUp: Bool, isCancelled: Bool)>((nil, false, false))

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

    /// Whether the construction was given back because its provider was cancelled (see
    /// ConstructionPolicy.swift): the waiters claim again, and the caller that started it in a
    /// task of its own leaves with `CancellationError`, as the builder in its own task would.
    var givenBackByCancellation: Bool {
        run.withLock(\.isCancelled)
    }

    func recordCancellation() {
        run.withLock { $0.isCancelled = true }
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
