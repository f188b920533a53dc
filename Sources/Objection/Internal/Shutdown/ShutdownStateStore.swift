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
