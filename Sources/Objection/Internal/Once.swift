/// A value computed once, on first use, by one shared task; a failure is not kept.
final class Once<T: Sendable>: Sendable {
    private enum State {
        case idle
        case running(Task<T, any Error>)
        case done(T)
    }

    private enum Start {
        case ready(T)
        case wait(Task<T, any Error>)
    }

    private let state = Lock(State.idle)

    /// The value, computing it with `compute` if no one has yet.
    func value(_ compute: @escaping @Sendable () async throws -> T) async throws -> T {
        let start: Start = state.withLock { state in
            switch state {
            case .done(let value):
                return .ready(value)
            case .running(let task):
                return .wait(task)
            case .idle:
                let task = Task { try await compute() }
                state = .running(task)
                return .wait(task)
            }
        }
        let task: Task<T, any Error>
        switch start {
        case .ready(let value): return value
        case .wait(let running): task = running
        }
        do {
            let value = try await task.value
            state.withLock { state in
                if case .running = state { state = .done(value) }
            }
            return value
        } catch {
            state.withLock { state in
                if case .running(let current) = state, current == task { state = .idle }
            }
            throw error
        }
    }
}
