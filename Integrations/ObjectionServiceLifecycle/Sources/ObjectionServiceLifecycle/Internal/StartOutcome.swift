import Synchronization

/// How ``InjectorService``'s start ended, once it has: awaited by ``InjectorService/waitUntilStarted()``.
final class StartOutcome: Sendable {
    private enum State {
        case pending([CheckedContinuation<Void, any Error>])
        case ended(Result<Void, any Error>)
    }

    private let state = Mutex(State.pending([]))

    /// Records how the start ended and resumes the waiters; only the first call counts.
    func finish(_ result: Result<Void, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            guard case .pending(let waiters) = state else { return [] }
            state = .ended(result)
            return waiters
        }
        for waiter in waiters { waiter.resume(with: result) }
    }

    /// Waits until the start has ended; rethrows its failure.
    func wait() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let ended = state.withLock { state -> Result<Void, any Error>? in
                switch state {
                case .ended(let result):
                    return result
                case .pending(let waiters):
                    state = .pending(waiters + [continuation])
                    return nil
                }
            }
            if let ended { continuation.resume(with: ended) }
        }
    }
}
