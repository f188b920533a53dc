/// Runs a refresh's rebuild against a deadline without waiting for a rebuild that ignores
/// cancellation: the caller is answered at the deadline, the rebuild's task is cancelled, and a
/// value it still produces later is handed to `discardingLate` (nobody else gets it). `ended`
/// is called once the rebuild's task has ended, answered or not: until then it may be using
/// singletons, which a shutdown must not dispose under it.
enum RefreshDeadline {
    static func run<Value: Sendable>(
        _ deadline: Duration,
        naming key: BindingKey,
        _ body: @escaping @Sendable () async throws -> Value,
        discardingLate: @escaping @Sendable (Value) async -> Void,
        ended: @escaping @Sendable () -> Void
    ) async throws -> Value {
        let answer = Answer<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                answer.wait(continuation)
                let work = Task.detached(priority: Task.currentPriority) {
                    defer { ended() }
                    do {
                        let value = try await body()
                        if !answer.give(.success(value)) { await discardingLate(value) }
                    } catch {
                        _ = answer.give(.failure(error))
                    }
                }
                let timer = Task {
                    // A deadline past the longest kept is none (`Task.sleep` traps past `Int64` nanoseconds).
                    try await Task.sleep(for: min(deadline, InjectorActor.longestDeadline))
                    if answer.give(.failure(InjectionError.refreshTimedOut(key, after: deadline))) { work.cancel() }
                }
                answer.onAnswer {
                    work.cancel()
                } andStop: {
                    timer.cancel()
                }
            }
        } onCancel: {
            // The caller left: nobody waits for the rebuild any more.
            if answer.give(.failure(CancellationError())) { answer.cancelWork() }
        }
    }

    /// The one answer of a rebuild: the first of its value, its error, the deadline or the
    /// caller's cancellation.
    private final class Answer<Value: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Value, any Error>?
            /// The answer, once given; `early` too when no continuation waited for it yet.
            var answer: Result<Value, any Error>?
            var early: Result<Value, any Error>?
            var isAnswered: Bool { answer != nil }
            var cancelWork: (@Sendable () -> Void)?
            var stopTimer: (@Sendable () -> Void)?
        }
        private let state = Lock(State())

        func wait(_ continuation: CheckedContinuation<Value, any Error>) {
            let early = state.withLock { state in
                state.continuation = continuation
                return state.early
            }
            if let early { continuation.resume(with: early) }
        }

        /// Registers how to stop the work (when the answer is not its own) and the timer.
        func onAnswer(_ cancelWork: @escaping @Sendable () -> Void, andStop stopTimer: @escaping @Sendable () -> Void) {
            let answer = state.withLock { state in
                state.cancelWork = cancelWork
                state.stopTimer = stopTimer
                return state.answer
            }
            guard let answer else { return }
            stopTimer()
            // Answered before the work was registered: by the caller's cancellation, not the work.
            if case .failure(let error) = answer, error is CancellationError { cancelWork() }
        }

        /// Cancels the work, once it was registered (``onAnswer(_:andStop:)``): a caller that
        /// leaves before then is seen by the work's first check, as the answer is given.
        func cancelWork() {
            state.withLock { $0.cancelWork }?()
        }

        /// Answers the caller, if nobody did: `false` when the answer came too late.
        func give(_ result: Result<Value, any Error>) -> Bool {
            let taken = state.withLock { state -> (CheckedContinuation<Value, any Error>?, (@Sendable () -> Void)?)? in
                guard !state.isAnswered else { return nil }
                state.answer = result
                let continuation = state.continuation
                if continuation == nil { state.early = result }
                state.continuation = nil
                return (continuation, state.stopTimer)
            }
            guard let (continuation, stopTimer) = taken else { return false }
            stopTimer?()
            continuation?.resume(with: result)
            return true
        }
    }
}
