/// A value computed once, on first use, by one shared task; a failure is not kept, and a caller
/// that is cancelled leaves without waiting.
final class Once<T: Sendable>: Sendable {
    private enum State {
        case idle
        case running(SharedOutcome<T>)
        case done(T)
    }

    private enum Start {
        case ready(T)
        case wait(SharedOutcome<T>, starts: Bool)
    }

    private let state = Lock(State.idle)

    /// The value, computing it with `compute` if no one has yet.
    func value(_ compute: @escaping @Sendable () async throws -> T) async throws -> T {
        let start: Start = state.withLock { state in
            switch state {
            case .done(let value):
                return .ready(value)
            case .running(let outcome):
                return .wait(outcome, starts: false)
            case .idle:
                let outcome = SharedOutcome<T>()
                state = .running(outcome)
                return .wait(outcome, starts: true)
            }
        }
        switch start {
        case .ready(let value):
            return value
        case .wait(let outcome, let starts):
            if starts {
                // Unstructured, so that the first caller's cancellation does not end the
                // computation the others share.
                Task { [state] in
                    let result = await Result(catching: compute)
                    state.withLock { state in
                        guard case .running(let current) = state, current === outcome else { return }
                        switch result {
                        case .success(let value): state = .done(value)
                        case .failure: state = .idle
                        }
                    }
                    outcome.finish(result)
                }
            }
            return try await outcome.value()
        }
    }
}

extension Result where Failure == any Error {
    /// The outcome of an `async` throwing call.
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
