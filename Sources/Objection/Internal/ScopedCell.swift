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
        /// Being built; the outcome is the value, or `nil` when the claimant gave up without one.
        /// Made when the first waiter arrives, so that a construction nobody waits for (the
        /// common case) allocates nothing for waiters.
        case building(Construction, SharedOutcome<Value?>?)
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
                state = .building(construction, nil)
                return .claimed(construction)
            }
        }
    }

    /// Waits for `construction` to finish. Returns `nil` when it was given up without an
    /// outcome, so the caller claims again; a cancelled caller leaves with `CancellationError`
    /// while the construction carries on.
    func wait(for construction: Construction) async throws -> Value? {
        let outcome = state.withLock { state -> SharedOutcome<Value?>? in
            guard case .building(let current, let existing) = state, current === construction else { return nil }
            if let existing { return existing }
            let outcome = SharedOutcome<Value?>()
            state = .building(current, outcome)
            return outcome
        }
        guard let outcome else { return builtBox() }
        return try await outcome.value()
    }

    /// Stores `value` built by the claimant and wakes the waiters.
    @usableFromInline
    func complete<T: Sendable>(_ value: T) {
        let built = Built(value)
        end(with: .success(built), leaving: .built(built))
    }

    /// Forgets the claimant's failed construction and hands its error to the waiters; nothing is
    /// stored, so the next caller builds again.
    @usableFromInline
    func fail(_ error: any Error) {
        end(with: .failure(error), leaving: .empty)
    }

    /// Gives up the claimant's construction without an outcome: the waiters claim again. Used when
    /// the claimant was cancelled, or a synchronous build has to fall back to the asynchronous path.
    @usableFromInline
    func abandon() {
        end(with: .success(nil), leaving: .empty)
    }

    private func end(with result: Result<Value?, any Error>, leaving next: State) {
        let outcome = state.withLock { state -> SharedOutcome<Value?>? in
            defer { state = next }
            if case .building(_, let outcome?) = state { return outcome }
            return nil
        }
        outcome?.finish(result)
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
