import Synchronization

/// Opens once a number of services have had their `run()` called, or when it is opened by hand
/// because the group running them ended first.
final class StartGate: Sendable {
    private enum State {
        case waiting(remaining: Int, waiter: CheckedContinuation<Bool, Never>?)
        case open(allArrived: Bool)
    }

    private let state: Mutex<State>

    /// A gate that opens after `count` arrivals; one with a count of zero is open.
    init(opensAfter count: Int) {
        state = Mutex(count > 0 ? .waiting(remaining: count, waiter: nil) : .open(allArrived: true))
    }

    /// Records that one more service had its `run()` called.
    func arrive() {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard case .waiting(let remaining, let waiter) = state else { return nil }
            guard remaining <= 1 else {
                state = .waiting(remaining: remaining - 1, waiter: waiter)
                return nil
            }
            state = .open(allArrived: true)
            return waiter
        }
        waiter?.resume(returning: true)
    }

    /// Opens the gate if it is still waiting for arrivals.
    func open() {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard case .waiting(_, let waiter) = state else { return nil }
            state = .open(allArrived: false)
            return waiter
        }
        waiter?.resume(returning: false)
    }

    /// Waits until the gate is open; one caller at a time.
    ///
    /// Not cancellable by itself: the group whose services arrive ends when the task is
    /// cancelled, and opens the gate as it ends.
    ///
    /// - Returns: Whether every service arrived, rather than the gate being opened by hand.
    func wait() async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let allArrived = state.withLock { state -> Bool? in
                switch state {
                case .open(let allArrived):
                    return allArrived
                case .waiting(let remaining, _):
                    state = .waiting(remaining: remaining, waiter: continuation)
                    return nil
                }
            }
            if let allArrived { continuation.resume(returning: allArrived) }
        }
    }

    /// Waits like ``wait()``, but the caller's cancellation opens the gate (answering `false`):
    /// for a start whose deadline passes while the services are starting.
    func waitUnlessCancelled() async -> Bool {
        await withTaskCancellationHandler {
            await wait()
        } onCancel: {
            open()
        }
    }
}
