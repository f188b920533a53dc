import Synchronization

/// A one-shot event that tests and fakes wait for instead of sleeping: ``fire()`` releases every
/// waiter, present and future. A waiting task that is cancelled stops waiting and throws.
///
/// ```swift
/// let entered = Signal()
/// router.get("slow") { _, _ in
///     entered.fire()
///     …
/// }
/// async let response = client.get("/slow")
/// try await entered.wait()   // the handler runs now
/// ```
public final class Signal: Sendable {
    private struct State {
        var fired = false
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
    }

    private let state = Mutex(State())

    /// Creates a signal that has not fired.
    public init() {}

    /// Whether ``fire()`` was called.
    public var hasFired: Bool { state.withLock { $0.fired } }

    /// Releases every waiter, now and from now on. Calling it again does nothing more.
    public func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.fired = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once ``fire()`` is called, or at once if it was.
    ///
    /// - Throws: `CancellationError` when the task is cancelled before the signal fires.
    public func wait() async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.fired || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow {
                    if hasFired { continuation.resume() } else { continuation.resume(throwing: CancellationError()) }
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(throwing: CancellationError())
        }
    }
}
