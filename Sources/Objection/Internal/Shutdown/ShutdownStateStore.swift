/// Where an injector keeps its ``ShutdownState``: under a lock of its own, or, for a request
/// scope, in the scope's storage under the lock of its cells, so that opening a scope allocates
/// one lock rather than two.
enum ShutdownStateStore: Sendable {
    case own(Lock<ShutdownState>)
    case request(RequestState)

    /// Runs `body` with exclusive access to the state.
    func withLock<R>(_ body: (inout ShutdownState) -> R) -> R {
        switch self {
        case .own(let lock): lock.withLock(body)
        case .request(let request): request.withShutdownState(body)
        }
    }
}

extension ShutdownStateStore {
    /// Counts the task of `construction`, which a start gave up, as work in flight until it ends
    /// (``ShutdownState/abandonedWork``): shutdown waits for it before it disposes the singletons
    /// it may be using.
    func countAsWorkInFlight(_ construction: Construction) {
        withLock { $0.abandonedWork.append(construction) }
    }

    /// The constructions a start gave up whose tasks still run, but those of `excluded` (a
    /// provider that shuts its own injector down is not waited for by that call); forgets those
    /// that have ended. Each one's ``Construction/endOfRun()`` is what a shutdown waits for.
    func abandonedWorkInFlight(excluding excluded: [Construction]) -> [Construction] {
        let running = withLock { state in
            state.abandonedWork.removeAll { $0.hasEnded }
            return state.abandonedWork
        }
        return running.filter { construction in !excluded.contains { $0 === construction } }
    }
}
