/// One build through a function chosen at the call (``InjectorActor/build(_:fileID:line:)`` and
/// its overloads): a transient binding that no table holds, whose recipe passes the caller's
/// arguments first and resolves the function's other parameters by type.
///
/// It resolves like any transient: one step on the caller's path, so a missing parameter is a
/// ``InjectionError/Code/missingBinding`` naming the path through the built type, and a
/// parameter that needs the caller's own construction is a cycle. Its parameters are looked up
/// by key in the injector that builds it (it links to no table), so a child's or a request
/// scope's bindings win as they do for `get`.
struct AdHocBuild<T: Sendable> {
    /// The binding; its producer is the function, then property injection for a
    /// ``PropertyInjectable`` value.
    let binding: Binding

    /// A build through `recipe`, which resolves `dependencies` in order.
    private init(recipe: Recipe<T>, dependencies: [BindingKey], location: InjectionError.SourceLocation) {
        let producer = recipe.injectingProperties()
        var declaration = BindingDeclaration(key: BindingKey(T.self), location: location)
        declaration.producer = producer
        declaration.dependencies = dependencies
        binding = Binding(tableless: declaration, producer: producer)
    }

    init<each Dependency: Sendable>(
        _ function: @escaping @Sendable (repeat each Dependency) async throws -> T,
        location: InjectionError.SourceLocation
    ) {
        let recipe = Recipe<T>.declared { resolver, binding in
            var position = 0
            return try await function(
                repeat try await resolver.next((each Dependency).self, of: binding, at: &position))
        }
        self.init(
            recipe: recipe, dependencies: BindingKey.parameters(repeat (each Dependency).self), location: location)
    }

    init<A: Sendable, each Dependency: Sendable>(
        _ function: @escaping @Sendable (A, repeat each Dependency) async throws -> T,
        given a: A,
        location: InjectionError.SourceLocation
    ) {
        let recipe = Recipe<T>.declared { resolver, binding in
            var position = 0
            return try await function(
                a, repeat try await resolver.next((each Dependency).self, of: binding, at: &position))
        }
        self.init(
            recipe: recipe, dependencies: BindingKey.parameters(repeat (each Dependency).self), location: location)
    }

    init<A: Sendable, B: Sendable, each Dependency: Sendable>(
        _ function: @escaping @Sendable (A, B, repeat each Dependency) async throws -> T,
        given a: A,
        _ b: B,
        location: InjectionError.SourceLocation
    ) {
        let recipe = Recipe<T>.declared { resolver, binding in
            var position = 0
            return try await function(
                a, b, repeat try await resolver.next((each Dependency).self, of: binding, at: &position))
        }
        self.init(
            recipe: recipe, dependencies: BindingKey.parameters(repeat (each Dependency).self), location: location)
    }

    init<A: Sendable, B: Sendable, C: Sendable, each Dependency: Sendable>(
        _ function: @escaping @Sendable (A, B, C, repeat each Dependency) async throws -> T,
        given a: A,
        _ b: B,
        _ c: C,
        location: InjectionError.SourceLocation
    ) {
        let recipe = Recipe<T>.declared { resolver, binding in
            var position = 0
            return try await function(
                a, b, c, repeat try await resolver.next((each Dependency).self, of: binding, at: &position))
        }
        self.init(
            recipe: recipe, dependencies: BindingKey.parameters(repeat (each Dependency).self), location: location)
    }
}
