/// What a module said about one key, before the injector links it into a ``Binding``.
struct BindingDeclaration {
    let key: BindingKey
    let location: InjectionError.SourceLocation
    var producer: (any AnyRecipe)?
    /// The keys the producer resolves, when they are known up front (autowiring, aliases).
    var dependencies: [BindingKey] = []
    /// The keys of the bound type's ``PropertyInjectable/injectedProperties``, set after it is built.
    var propertyDependencies: [BindingKey] = []
    var targetCount = 0
    var scope: Scope = .transient
    var isEager = false
    /// Whether this is the root's stand-in for a key request scopes supply.
    var isSuppliedByScope = false
    /// The binding's `onDispose` hook, taking a value of the bound type.
    var dispose: (@Sendable (any Sendable, ScopeOutcome) async throws -> Void)?
    /// For a contribution to a collection (`Binder.contribute`), the collection it feeds.
    var collection: (any AnyContributedCollection)?
    /// The collections this binding's value also feeds (`contributing(to:)`), each once.
    var contributesTo: Set<BindingKey> = []
}
