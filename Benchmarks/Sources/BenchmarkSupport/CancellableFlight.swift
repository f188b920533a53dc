import Synchronization

extension HandWritten {
    /// The least a single flight whose waiters can leave when cancelled needs, written by hand:
    /// one `Mutex`, a slot per waiter, a continuation and a cancellation handler each. The floor
    /// of case 4 for any design that, unlike a shared `Task`, lets a cancelled waiter go while the
    /// construction carries on for the others.
    public final class CancellableFlight: Sendable {
        private enum Slot {
            case pending
            case waiting(UnsafeContinuation<Engine, any Error>)
            case left
        }

        private struct State {
            var value: Engine?
            var isStarted = false
            var slots: [Slot] = []
        }

        private let state = Mutex(State())
        private let construct: @Sendable () async -> Engine

        public init(construct: @escaping @Sendable () async -> Engine) {
            self.construct = construct
        }

        /// The value, built once; a cancelled caller leaves with `CancellationError`.
        public func value() async throws -> Engine {
            let (known, id, starts) = state.withLock { state -> (Engine?, Int, Bool) in
                if let value = state.value { return (value, 0, false) }
                state.slots.append(.pending)
                defer { state.isStarted = true }
                return (nil, state.slots.count - 1, !state.isStarted)
            }
            if let known { return known }
            if starts { Task { finish(await construct()) } }
            return try await withTaskCancellationHandler {
                try await withUnsafeThrowingContinuation { continuation in
                    let resume = state.withLock { state -> Swift.Result<Engine, any Error>? in
                        if let value = state.value { return .success(value) }
                        guard case .pending = state.slots[id] else { return .failure(CancellationError()) }
                        state.slots[id] = .waiting(continuation)
                        return nil
                    }
                    if let resume { continuation.resume(with: resume) }
                }
            } onCancel: {
                let waiter = state.withLock { state -> UnsafeContinuation<Engine, any Error>? in
                    guard state.value == nil else { return nil }
                    defer { state.slots[id] = .left }
                    if case .waiting(let continuation) = state.slots[id] { return continuation }
                    return nil
                }
                waiter?.resume(throwing: CancellationError())
            }
        }

        private func finish(_ value: Engine) {
            let waiters = state.withLock { state -> [UnsafeContinuation<Engine, any Error>] in
                state.value = value
                defer { state.slots = [] }
                return state.slots.compactMap { slot in
                    if case .waiting(let continuation) = slot { return continuation }
                    return nil
                }
            }
            for waiter in waiters { waiter.resume(returning: value) }
        }
    }
}
