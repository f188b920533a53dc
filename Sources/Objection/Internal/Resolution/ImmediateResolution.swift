/// What an injector's table answers for a key without suspending
/// (`InjectorActor.immediateResolution(of:as:below:)`).
@usableFromInline
enum ImmediateResolution<T: Sendable> {
    /// The value: a built singleton, or a transient built with plain function calls.
    case value(T)
    /// A transient that must be built step by step, with its binding and recipe.
    case stepByStep(Binding, Recipe<T>)
    /// Anything else (not in the table, not transient, shut down): the whole path answers it.
    case elsewhere
}
