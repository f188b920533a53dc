/// The waiters of one shared construction, as a plain state machine: every transition returns
/// what to resume, and the caller resumes it after releasing the lock that guards the state.
///
/// A waiter that is cancelled leaves on its own: it is resumed with `CancellationError` and
/// removed, while the construction carries on for the others. A finished outcome is handed to
/// every waiter still registered, and to each later one at once.
///
/// `Waiter` is a continuation in ``SharedOutcome``; being generic, the machine is tested with
/// plain values, without concurrency.
struct OutcomeWaiters<Value: Sendable, Waiter: Sendable>: Sendable {
    /// The waiters still to resume, while the outcome is unknown. A stored property of its own,
    /// not the payload of a state enum: mutating a payload taken out of an enum copies the whole
    /// dictionary, so each registration would copy every earlier waiter.
    private var waiters: [Int: Waiter] = [:]
    /// The outcome, once known.
    private(set) var result: Result<Value, any Error>?
    private var nextID = 0

    /// What to do with a waiter that asked to register.
    enum Registration {
        /// It is registered; it will be resumed by ``finish(_:)`` or ``cancel(_:)``.
        case suspended
        /// Resume it now with this result.
        case resume(Waiter, Result<Value, any Error>)
    }

    /// A new waiter's identity, to register and, if cancelled, to leave with.
    mutating func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    /// Registers `waiter` as `id`, unless the outcome is known or its task is already cancelled.
    mutating func register(_ waiter: Waiter, as id: Int, isCancelled: Bool) -> Registration {
        if let result { return .resume(waiter, result) }
        if isCancelled { return .resume(waiter, .failure(CancellationError())) }
        waiters[id] = waiter
        return .suspended
    }

    /// Removes the waiter `id`, returning it to be resumed with `CancellationError`; `nil` when it
    /// is not registered (not yet, or already resumed).
    mutating func cancel(_ id: Int) -> Waiter? {
        waiters.removeValue(forKey: id)
    }

    /// Records the outcome and returns the waiters to resume with it; empty if it was known.
    mutating func finish(_ result: Result<Value, any Error>) -> [Waiter] {
        guard self.result == nil else { return [] }
        self.result = result
        defer { waiters = [:] }
        return Array(waiters.values)
    }
}

/// The outcome of one shared construction, awaited by any number of tasks, each of which can
/// leave when it is cancelled without affecting the construction or the other waiters.
///
/// Used by singleton constructions, scoped cells and ``Lazy``: the one exactly-once hand-over of
/// the library.
final class SharedOutcome<Value: Sendable>: Sendable {
    // Unsafe rather than checked: the machine resumes each waiter exactly once, and a checked
    // continuation costs every waiter of a stampede one more allocation.
    private typealias Waiter = UnsafeContinuation<Value, any Error>
    private let waiters = Lock(OutcomeWaiters<Value, Waiter>())

    init() {}

    /// Waits for the outcome. A cancelled caller returns at once with `CancellationError`.
    func value() async throws -> Value {
        let (known, id) = waiters.withLock { ($0.result, $0.makeID()) }
        if let known { return try known.get() }
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (waiter: Waiter) in
                let registration = waiters.withLock { $0.register(waiter, as: id, isCancelled: Task.isCancelled) }
                if case .resume(let waiter, let result) = registration { waiter.resume(with: result) }
            }
        } onCancel: {
            waiters.withLock { $0.cancel(id) }?.resume(throwing: CancellationError())
        }
    }

    /// Hands `result` to every waiter; later calls of ``value()`` return it at once. Only the
    /// first call has an effect.
    func finish(_ result: Result<Value, any Error>) {
        for waiter in waiters.withLock({ $0.finish(result) }) { waiter.resume(with: result) }
    }
}
