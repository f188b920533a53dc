/// The cache slot of one scoped binding in one request scope, with the construction state that
/// makes it exactly-once without an actor hop.
///
/// A scoped instance belongs to its request, so the first task of the request that needs it
/// builds it in place (seeing the request's task-local values); concurrent tasks of the same
/// request wait for that construction. The state changes under a lock, which is never held while
/// user code runs; waiting tasks are resumed after it is released.
@usableFromInline
final class ScopedCell: Sendable {
    @usableFromInline typealias Value = any AnyObject & Sendable

    private enum State {
        case empty
        case building(Construction, [CheckedContinuation<Value?, any Error>])
        case built(Value)
    }

    /// What a caller should do about the cell.
    @usableFromInline
    enum Claim {
        /// The value is built.
        case built(Value)
        /// The caller builds it, as `construction`, and must call `complete` or `fail`.
        case claimed(Construction)
        /// Someone else is building it, as `construction`; wait with `wait(for:)`.
        case inFlight(Construction)
    }

    private let state = Lock<State>(.empty)

    init() {}

    /// The built value, or a request to leave the synchronous path. Non-optional so that code
    /// not specialised for `T` needs no metadata for `T?`.
    @inlinable
    func builtValue<T: Sendable>(as type: T.Type) throws(SynchronousResolutionUnavailable) -> T {
        guard let built = builtBox() else { throw SynchronousResolutionUnavailable() }
        return Built<T>.unbox(built)
    }

    /// The built value, if any. `T` must be the type of the binding that owns the cell.
    @inlinable
    func value<T: Sendable>(as type: T.Type) -> T? {
        guard let built = builtBox() else { return nil }
        return Built<T>.unbox(built)
    }

    @usableFromInline
    func builtBox() -> Value? {
        state.withLock { state in
            if case .built(let value) = state { return value }
            return nil
        }
    }

    @usableFromInline
    var isBuilt: Bool { builtBox() != nil }

    /// The construction in flight, if any.
    var building: Construction? {
        state.withLock { state in
            if case .building(let construction, _) = state { return construction }
            return nil
        }
    }

    @usableFromInline
    func claim(as key: BindingKey) -> Claim {
        state.withLock { state in
            switch state {
            case .built(let value):
                return .built(value)
            case .building(let construction, _):
                return .inFlight(construction)
            case .empty:
                let construction = Construction(key: key)
                state = .building(construction, [])
                return .claimed(construction)
            }
        }
    }

    /// Waits for `construction` to finish. Returns `nil` when it already failed, so the caller
    /// claims again.
    func wait(for construction: Construction) async throws -> Value? {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value?, any Error>) in
            enum Action {
                case resume(Value?)
                case waiting
            }
            let action = state.withLock { state -> Action in
                switch state {
                case .built(let value):
                    return .resume(value)
                case .building(let current, var waiters) where current === construction:
                    waiters.append(continuation)
                    state = .building(current, waiters)
                    return .waiting
                case .building, .empty:
                    return .resume(nil)
                }
            }
            if case .resume(let value) = action { continuation.resume(returning: value) }
        }
    }

    /// Stores `value` built by the claimant and wakes the waiters.
    @usableFromInline
    func complete<T: Sendable>(_ value: T) {
        let built = Built(value)
        let waiters = state.withLock { state in
            defer { state = .built(built) }
            if case .building(_, let waiters) = state { return waiters }
            return []
        }
        for waiter in waiters { waiter.resume(returning: built) }
    }

    /// Forgets the claimant's failed construction and hands its error to the waiters; nothing is
    /// stored, so the next caller builds again.
    @usableFromInline
    func fail(_ error: any Error) {
        let waiters = state.withLock { state in
            defer { state = .empty }
            if case .building(_, let waiters) = state { return waiters }
            return []
        }
        for waiter in waiters { waiter.resume(throwing: error) }
    }

    /// Gives up the claimant's construction without an outcome: the waiters claim again. Used when
    /// a synchronous build has to fall back to the asynchronous path.
    @usableFromInline
    func abandon() {
        let waiters = state.withLock { state in
            defer { state = .empty }
            if case .building(_, let waiters) = state { return waiters }
            return []
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }

    /// Empties the cell, releasing its value.
    func clear() {
        let released = state.withLock { state in
            defer { if case .built = state { state = .empty } }
            return state
        }
        _ = released
    }
}
