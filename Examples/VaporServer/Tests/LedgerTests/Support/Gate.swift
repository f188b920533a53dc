import Synchronization

/// Holds the tasks that reach it until the test opens it, and tells the test when a given number
/// have arrived: the proof that that many requests are in flight at the same moment, without
/// sleeping.
final class Gate: Sendable {
    private struct State {
        var arrived = 0
        var isOpen = false
        var held: [CheckedContinuation<Void, Never>] = []
        var counting: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    /// Called by the code under test: counts the arrival, then returns once the gate is open.
    func pass() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // Resumed outside the lock.
            let (counted, passes) = state.withLock { state in
                state.arrived += 1
                let arrived = state.arrived
                let counted = state.counting.filter { $0.count <= arrived }.map(\.continuation)
                state.counting.removeAll { $0.count <= arrived }
                if !state.isOpen { state.held.append(continuation) }
                return (counted, state.isOpen)
            }
            for waiter in counted { waiter.resume() }
            if passes { continuation.resume() }
        }
    }

    /// Returns once `count` tasks have reached the gate.
    func arrivals(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let reached = state.withLock { state in
                if state.arrived < count { state.counting.append((count, continuation)) }
                return state.arrived >= count
            }
            if reached { continuation.resume() }
        }
    }

    /// How many tasks are held at the gate now.
    var held: Int { state.withLock { $0.held.count } }

    /// Lets every held task, and every later one, through.
    func open() {
        let held = state.withLock { state in
            state.isOpen = true
            defer { state.held = [] }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }
}
