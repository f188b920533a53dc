import ServiceLifecycle
import Synchronization

/// Hands the services the injector's start built over to the ``InjectorService`` that runs them,
/// once: the start builds them inside its deadline and its startup event, the service runs them
/// beside it, and the start waits at the returned gate until each one's `run()` has been called.
final class ServiceHandoff: Sendable {
    /// What the service runs: the services, and the gate they open as they start.
    struct Delivery: Sendable {
        let services: [any Service]
        let gate: StartGate
    }

    private enum State {
        case waiting(CheckedContinuation<Delivery?, Never>?)
        case ended(Delivery?)
    }

    private let state = Mutex(State.waiting(nil))

    /// Hands `services` over; answers the gate they open once each has started. Only the first
    /// hand-over (or ``giveUp()``) counts: a later one gets a gate that is already open.
    func deliver(_ services: [any Service]) -> StartGate {
        let delivery = Delivery(services: services, gate: StartGate(opensAfter: services.count))
        let (waiter, delivered) = state.withLock { state -> (CheckedContinuation<Delivery?, Never>?, Bool) in
            guard case .waiting(let waiter) = state else { return (nil, false) }
            state = .ended(delivery)
            return (waiter, true)
        }
        waiter?.resume(returning: delivery)
        return delivered ? delivery.gate : StartGate(opensAfter: 0)
    }

    /// Tells the waiting service the start ended without handing any services over.
    func giveUp() {
        let waiter = state.withLock { state -> CheckedContinuation<Delivery?, Never>? in
            guard case .waiting(let waiter) = state else { return nil }
            state = .ended(nil)
            return waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The services once the start has built them; `nil` if it ended first. One caller.
    ///
    /// Not cancellable by itself: the start it waits on ends when the task is cancelled, and
    /// gives up as it ends.
    func delivery() async -> Delivery? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Delivery?, Never>) in
            let ended = state.withLock { state -> Delivery?? in
                switch state {
                case .ended(let delivery):
                    return .some(delivery)
                case .waiting:
                    state = .waiting(continuation)
                    return .none
                }
            }
            if let ended { continuation.resume(returning: ended) }
        }
    }
}
