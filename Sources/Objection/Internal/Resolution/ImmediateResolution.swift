/// What an injector's table answers for a key without suspending
/// (`InjectorActor.immediateResolution(of:as:below:)`).
@usableFromInline
enum ImmediateResolution<T: Sendable> {
    /// The value: a built singleton, or a transient built with plain function calls.
    case value(T)
    /// A transient that must be built step by step, with its binding and recipe.
    case stepByStep(Binding, Recipe<T>)
    /// A singleton in construction, asked for outside any construction: wait for its outcome,
    /// which is the value unless the construction was given up (`nil`: take the whole path).
    case inFlight(InFlightConstruction)
    /// Anything else (not in the table, not transient, shut down): the whole path answers it.
    case elsewhere
}

/// A construction in flight and the outcome its waiters share, as ``CacheCell/joinInFlight(as:)``
/// finds them.
@usableFromInline
struct InFlightConstruction: Sendable {
    let construction: Construction
    let outcome: SharedOutcome<CellState.Value?>

    /// Waits for the outcome as a caller outside any construction: the value, or `nil` when the
    /// construction was given up (claim again).
    @usableFromInline
    nonisolated(nonsending) func value<T: Sendable>(as type: T.Type) async throws -> T? {
        let box = try await CellState.wait(for: construction, outcome: outcome, waiter: nil, path: [])
        return box.map { CellValue.unwrap($0, as: T.self) }
    }
}
