import Synchronization

/// How ``InjectorService``'s start ended, once it has: awaited by ``InjectorService/waitUntilStarted()``.
final class StartOutcome: Sendable {
    private enum State {
        /// The waiters, by the number each was given, and the next number.
        case pending([Int: CheckedContinuation<Void, any Error>], next: Int)
        case ended(Result<Void, any Error>)
    }

    private let state = Mutex(State.pending([:], next: 0))

    /// Records how the start ended and resumes the waiters; only the first call counts.
    func finish(_ result: Result<Void, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            guard case .pending(let waiters, _) = state else { return [] }
            state = .ended(result)
            return Array(waiters.values)
        }
        for waiter in waiters { waiter.resume(with: result) }
    }

    /// Waits until the start has ended; rethrows its failure. A cancelled caller stops waiting
    /// at once, with `CancellationError`; the start goes on.
    func wait() async throws {
        let number = state.withLock { state -> Int in
            guard case .pending(let waiters, let next) = state else { return 0 }
            state = .pending(waiters, next: next + 1)
            return next
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ended = state.withLock { state -> Result<Void, any Error>? in
                    switch state {
                    case .ended(let result):
                        return result
                    case .pending(var waiters, let next):
                        // Cancelled before it waited: the handler below found nothing to resume.
                        guard !Task.isCancelled else { return .failure(CancellationError()) }
                        waiters[number] = continuation
                        state = .pending(waiters, next: next)
                        return nil
                    }
                }
                if let ended { continuation.resume(with: ended) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard case .pending(var waiters, let next) = state, let waiter = waiters.removeValue(forKey: number)
                else { return nil }
                state = .pending(waiters, next: next)
                return waiter
            }
            waiter?.resume(throwing: CancellationError())
        }
    }
}
