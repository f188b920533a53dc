import Synchronization

/// Holds the tasks that reach it until the test opens it, and tells the test when a given number
/// have arrived: the proof that that many requests are in flight at the same moment, without
/// sleeping.
///
/// ```swift
/// let gate = Gate()
/// // The code under test calls `await gate.pass()` inside each request.
/// for _ in 0..<10 { group.addTask { try await client.get("/held") } }
/// await gate.waitForArrivals(10)
/// #expect(gate.held == 10)
/// gate.open()
/// ```
public final class Gate: Sendable {
    private struct State {
        var arrived = 0
        var isOpen = false
        var held: [CheckedContinuation<Void, Never>] = []
        var counting: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    /// Creates a closed gate that no task has reached.
    public init() {}

    /// Called by the code under test: counts the arrival, then returns once the gate is open.
    public func pass() async {
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

    /// Returns once `count` tasks in all have reached the gate, held or let through.
    ///
    /// - Parameter count: How many arrivals to wait for, counted from the gate's creation.
    public func waitForArrivals(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let reached = state.withLock { state in
                if state.arrived < count { state.counting.append((count, continuation)) }
                return state.arrived >= count
            }
            if reached { continuation.resume() }
        }
    }

    /// How many tasks are held at the gate now.
    public var held: Int { state.withLock { $0.held.count } }

    /// Lets every held task, and every later one, through.
    public func open() {
        let held = state.withLock { state in
            state.isOpen = true
            defer { state.held = [] }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }
}
