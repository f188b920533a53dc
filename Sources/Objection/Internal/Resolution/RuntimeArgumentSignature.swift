/// What a recipe says about runtime arguments, read without its type: by the checks of a call
/// with arguments (`InjectorActor.checkArguments`), of the table (eager and refreshable bindings
/// that take them) and of start-up.
///
/// A protocol of its own rather than requirements of ``AnyRecipe``, whose requirements the
/// inlinable path would have to see.
protocol RuntimeArgumentSignature {
    /// Whether it takes runtime arguments (an alias forwards them to its target).
    var takesArguments: Bool { get }
    /// The types of the runtime arguments it takes; none declared for an alias.
    var argumentTypes: [any Any.Type] { get }
    /// Whether it cannot build without runtime arguments: it takes them and has no defaults.
    var argumentsRequired: Bool { get }
}

extension Recipe: RuntimeArgumentSignature {
    var takesArguments: Bool { argumentRecipe != nil }
}

extension AnyRecipe {
    /// This recipe's ``RuntimeArgumentSignature``; every recipe is a `Recipe`, which has one.
    var arguments: (any RuntimeArgumentSignature)? { self as? any RuntimeArgumentSignature }
}
