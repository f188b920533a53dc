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

/// The outcome of a singleton's construction in flight, joined by a caller outside any
/// construction (``CacheCell/readOrJoin(as:)`` has counted the join), which awaits it in
/// `InjectorActor.joined(_:as:)`: the value, or `nil` when the construction was given up.
@usableFromInline
struct InFlightConstruction: Sendable {
    let outcome: SharedOutcome<CellState.Value?>

    init(_ outcome: SharedOutcome<CellState.Value?>) {
        self.outcome = outcome
    }
}

/// A singleton as a caller outside any construction finds it (``CacheCell/readOrJoin(as:)``).
@usableFromInline
enum SingletonReading {
    /// Built: the cell's object (``CellValue``).
    case built(any AnyObject & Sendable)
    /// In flight, joined.
    case inFlight(InFlightConstruction)
    /// Neither: the whole path claims it.
    case idle
}
