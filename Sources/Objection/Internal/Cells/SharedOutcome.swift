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
    private enum State {
        case pending(waiters: [Int: Waiter])
        case finished(Result<Value, any Error>)
    }

    /// What to do with a waiter that asked to register.
    enum Registration {
        /// It is registered; it will be resumed by ``finish(_:)`` or ``cancel(_:)``.
        case suspended
        /// Resume it now with this result.
        case resume(Waiter, Result<Value, any Error>)
    }

    private var state = State.pending(waiters: [:])
    private var nextID = 0

    /// A new waiter's identity, to register and, if cancelled, to leave with.
    mutating func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    /// Registers `waiter` as `id`, unless the outcome is known or its task is already cancelled.
    mutating func register(_ waiter: Waiter, as id: Int, isCancelled: Bool) -> Registration {
        switch state {
        case .finished(let result):
            return .resume(waiter, result)
        case .pending(var waiters):
            if isCancelled { return .resume(waiter, .failure(CancellationError())) }
            waiters[id] = waiter
            state = .pending(waiters: waiters)
            return .suspended
        }
    }

    /// Removes the waiter `id`, returning it to be resumed with `CancellationError`; `nil` when it
    /// is not registered (not yet, or already resumed).
    mutating func cancel(_ id: Int) -> Waiter? {
        guard case .pending(var waiters) = state, let waiter = waiters.removeValue(forKey: id) else { return nil }
        state = .pending(waiters: waiters)
        return waiter
    }

    /// Records the outcome and returns the waiters to resume with it; empty if it was known.
    mutating func finish(_ result: Result<Value, any Error>) -> [Waiter] {
        guard case .pending(let waiters) = state else { return [] }
        state = .finished(result)
        return Array(waiters.values)
    }

    /// The outcome, once known.
    var result: Result<Value, any Error>? {
        if case .finished(let result) = state { return result }
        return nil
    }
}

/// The outcome of one shared construction, awaited by any number of tasks, each of which can
/// leave when it is cancelled without affecting the construction or the other waiters.
///
/// Used by singleton constructions, scoped cells and ``Lazy``: the one exactly-once hand-over of
/// the library.
final class SharedOutcome<Value: Sendable>: Sendable {
    private typealias Waiter = CheckedContinuation<Value, any Error>
    private let waiters = Lock(OutcomeWaiters<Value, Waiter>())

    init() {}

    /// Waits for the outcome. A cancelled caller returns at once with `CancellationError`.
    func value() async throws -> Value {
        if let known = waiters.withLock({ $0.result }) { return try known.get() }
        let id = waiters.withLock { $0.makeID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: Waiter) in
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
