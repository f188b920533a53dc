import Synchronization

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
    /// Where one waiter stands, at the position its identity names.
    private enum Slot {
        /// Identified, not registered yet.
        case pending
        /// Registered, to resume.
        case waiting(Waiter)
        /// Cancelled, or resumed: nothing more to do for it.
        case left
    }

    /// One slot per identity used while the outcome is unknown: registering, cancelling and
    /// finishing index an array, without hashing, and each costs the same at 10 waiters and at
    /// 16,000. A stored property of its own, not the payload of a state enum: mutating a payload
    /// taken out of an enum copies it, so each registration would copy every earlier waiter.
    ///
    /// Identities are handed out outside the machine, from a counter (see ``SharedOutcome``),
    /// densely from 0; the array grows to the largest one seen.
    private var slots: [Slot] = []
    /// The outcome, once known.
    private(set) var result: Result<Value, any Error>?

    /// What to do with a waiter that asked to register.
    enum Registration {
        /// It is registered; it will be resumed by ``finish(_:)`` or ``cancel(_:)``.
        case suspended
        /// Resume it now with this result.
        case resume(Waiter, Result<Value, any Error>)
    }

    /// The slot of `id`, made (with those before it) if it is the first use of `id`.
    private mutating func slot(_ id: Int) -> Slot {
        while id >= slots.count { slots.append(.pending) }
        return slots[id]
    }

    /// Registers `waiter` as `id`, unless the outcome is known or `id` was cancelled first.
    mutating func register(_ waiter: Waiter, as id: Int) -> Registration {
        if let result { return .resume(waiter, result) }
        guard id >= 0, case .pending = slot(id) else { return .resume(waiter, .failure(CancellationError())) }
        slots[id] = .waiting(waiter)
        return .suspended
    }

    /// Cancels `id`: returns its waiter to be resumed with `CancellationError`, or `nil` when it
    /// is not registered yet (it will be refused when it registers) or has already been resumed.
    mutating func cancel(_ id: Int) -> Waiter? {
        guard result == nil, id >= 0 else { return nil }
        let cancelled = slot(id)
        slots[id] = .left
        if case .waiting(let waiter) = cancelled { return waiter }
        return nil
    }

    /// Records the outcome and returns the waiters to resume with it, in the order of their
    /// identities; empty if it was known.
    mutating func finish(_ result: Result<Value, any Error>) -> [Waiter] {
        guard self.result == nil else { return [] }
        self.result = result
        var waiting: [Waiter] = []
        waiting.reserveCapacity(slots.count)
        for slot in slots {
            if case .waiting(let waiter) = slot { waiting.append(waiter) }
        }
        slots = []
        return waiting
    }
}

/// The outcome of one shared construction, awaited by any number of tasks, each of which can
/// leave when it is cancelled without affecting the construction or the other waiters.
///
/// Used by singleton constructions, scoped cells and ``Lazy``: the one exactly-once hand-over of
/// the library.
final class SharedOutcome<Value: Sendable>: Sendable {
    // Unsafe rather than checked: the machine resumes each waiter exactly once, and a checked
    // continuation costs every waiter of a stampede one more allocation.
    private typealias Waiter = UnsafeContinuation<Value, any Error>
    private let waiters = Lock(OutcomeWaiters<Value, Waiter>())
    /// The next waiter's identity: taken without the lock, so that a waiter takes it once, to
    /// register.
    private let nextID = Atomic<Int>(0)

    init() {}

    /// Waits for the outcome. A cancelled caller returns at once with `CancellationError`.
    ///
    /// Left to the optimiser to inline: forcing it measured nothing in the stampede's
    /// instructions or allocations (Benchmarks/README, "Inlining marks").
    nonisolated(nonsending) func value() async throws -> Value {
        let id = nextID.add(1, ordering: .relaxed).oldValue
        // A task cancelled before it registers has its handler run first, which marks its slot:
        // registering then refuses it, so no `Task.isCancelled` check is needed here. An outcome
        // already known is handed over by registering too.
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (waiter: Waiter) in
                let registration = waiters.withLock { $0.register(waiter, as: id) }
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
