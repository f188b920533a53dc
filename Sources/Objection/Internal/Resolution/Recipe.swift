/// The typed recipe for one binding's value.
///
/// Kept apart from ``Binding`` so that the untyped table can hold bindings of every type. Its
/// stored properties have the same layout for every `T` (a plain enum and closures), so that
/// code that is not specialised for `T` — the recipes of autowired parameter packs — reads them
/// without asking the runtime for generic metadata.
@usableFromInline final class Recipe<T: Sendable>: AnyRecipe {
    let kind: RecipeKind
    /// The recipe as straight-line synchronous code, for instances and for declared recipes that
    /// never suspend (synchronous autowired functions, aliases). Used when the whole graph below
    /// the binding can be built without suspending; see ``Binding/isSynchronous``. A recipe
    /// without that form (``isSynchronous`` is false) holds one that gives way to the
    /// asynchronous path.
    ///
    /// Not optional: calling a closure read from an optional stored property retained its
    /// context on every call, one atomic increment and decrement per object built. The price is
    /// paid once, when the injector is built: the stand-in of a recipe without a synchronous form
    /// is a generic closure, two allocations per such binding (the `BuildInjector` thresholds).
    let synchronous: @Sendable (SynchronousResolver, Binding) throws(SynchronousStop) -> T
    /// Whether ``synchronous`` is the recipe, rather than a stand-in that gives way.
    let isSynchronous: Bool
    /// The recipe, able to suspend; always present.
    let asynchronous: nonisolated(nonsending) @Sendable (Resolver, Binding) async throws -> T
    let instance: (any Sendable)?
    /// A provider closure that does not suspend, as it was bound: ``run(in:frame:for:)`` calls it
    /// without publishing its step as the task's current one, and a transient one runs without a
    /// step at all (`SynchronousResolver.transient`).
    let synchronousProvider: (@Sendable (Resolver) throws -> T)?
    /// A provider closure that may suspend, as it was bound: ``run(in:frame:for:)`` calls it directly,
    /// rather than through ``asynchronous``, whose wrapping closure costs an executor check (a
    /// `swift_task_switch`) and an asynchronous frame per object.
    let asynchronousProvider: (nonisolated(nonsending) @Sendable (Resolver) async throws -> T)?
    private let conformance: (@Sendable (any AnyRecipe) -> Bool?)?
    /// For a binding with runtime arguments: the recipe taking them, and their types (none
    /// declared for an alias, whose target's types apply).
    let argumentRecipe: (@Sendable (Resolver, Binding, [any Sendable]) async throws -> T)?
    let argumentTypes: [any Any.Type]
    /// Whether it cannot build without runtime arguments: it takes them and has no defaults.
    let argumentsRequired: Bool

    /// - Parameter synchronous: The synchronous form, or `.givesWay`. Taken as
    ///   ``SynchronousForm``, not as an optional closure: a closure stored in an `Optional` is
    ///   kept at the most general abstraction, and unwrapping it into ``synchronous`` adds two
    ///   reabstraction thunks to every call (Benchmarks/README, "Why the code is shaped so").
    private init(
        kind: RecipeKind,
        instance: T? = nil,
        synchronous: SynchronousForm,
        asynchronous: nonisolated(nonsending) @escaping @Sendable (Resolver, Binding) async throws -> T,
        conformance: (@Sendable (any AnyRecipe) -> Bool?)? = nil,
        argumentRecipe: (@Sendable (Resolver, Binding, [any Sendable]) async throws -> T)? = nil,
        argumentTypes: [any Any.Type] = [],
        argumentsRequired: Bool = false,
        synchronousProvider: (@Sendable (Resolver) throws -> T)? = nil,
        asynchronousProvider: (nonisolated(nonsending) @Sendable (Resolver) async throws -> T)? = nil
    ) {
        self.kind = kind
        self.instance = instance
        self.synchronousProvider = synchronousProvider
        self.asynchronousProvider = asynchronousProvider
        switch synchronous {
        case .recipe(let recipe):
            self.synchronous = recipe
            self.isSynchronous = true
        case .givesWay:
            self.synchronous = { _, _ throws(SynchronousStop) in throw .mustSuspend }
            self.isSynchronous = false
        }
        self.asynchronous = asynchronous
        self.conformance = conformance
        self.argumentRecipe = argumentRecipe
        self.argumentTypes = argumentTypes
        self.argumentsRequired = argumentsRequired
    }

    /// A recipe that takes runtime arguments of `types`; without arguments it uses `defaults`,
    /// or fails with ``InjectionError/Code/argumentMismatch``.
    static func withArguments(
        types: [any Any.Type],
        recipe: @escaping @Sendable (Resolver, Binding, [any Sendable]) async throws -> T,
        defaults: (@Sendable (Resolver, Binding) async throws -> T)?
    ) -> Recipe {
        let missing: @Sendable (Resolver, Binding) async throws -> T = { resolver, binding in
            throw InjectionError.argumentMismatch(binding.key, expected: types, given: [], path: resolver.keys)
        }
        let withoutArguments = defaults ?? missing
        return Recipe(
            kind: .opaque,
            synchronous: .givesWay,
            asynchronous: { resolver, binding in try await withoutArguments(resolver, binding) },
            argumentRecipe: recipe,
            argumentTypes: types,
            argumentsRequired: defaults == nil
        )
    }

    /// This binding's recipe with `arguments` given: what the one step runs when
    /// ``InjectorActor/get(_:named:arguments:_:)`` finds nothing built, so that a call with
    /// arguments follows the binding's lifetime as a call without them does. `nil` when the
    /// binding takes no runtime arguments. The caller has checked them
    /// (`InjectorActor.checkArguments`).
    func applying(_ arguments: RuntimeArguments) -> Recipe? {
        guard let argumentRecipe else { return nil }
        let values = arguments.values
        return Recipe(
            kind: .opaque,
            synchronous: .givesWay,
            asynchronous: { resolver, binding in try await argumentRecipe(resolver, binding, values) }
        )
    }

    /// The stand-in for a key that request scopes supply (``BindingBuilder/suppliedByScope()``).
    /// Its synchronous form gives way to the asynchronous path, so that the plan can count on the
    /// request's own binding (found by key in the scope) and still report a scope that lacks it.
    static func suppliedByScope(
        missing: @escaping @Sendable (Resolver) throws -> Never
    ) -> Recipe {
        Recipe(
            kind: .opaque,
            // The scope's value, when its opener bound one, is read before the recipe runs; the
            // plan counts this form as synchronous, and it gives way when it runs. A missing
            // value is reported by `SynchronousResolver.scopedStep` before the asynchronous form would run; that
            // form reports the same error, for any path that reaches it.
            synchronous: .recipe { _, _ throws(SynchronousStop) in throw .mustSuspend },
            asynchronous: { resolver, _ in try missing(resolver) }
        )
    }

    /// A value the caller owns.
    static func instance(_ value: T) -> Recipe {
        Recipe(
            kind: .instance,
            instance: value,
            synchronous: .recipe { _, _ in value },
            asynchronous: { _, _ in value }
        )
    }

    /// A provider closure.
    @usableFromInline static func opaque(
        _ provider: nonisolated(nonsending) @escaping @Sendable (Resolver) async throws -> T
    ) -> Recipe {
        Recipe(
            kind: .opaque,
            synchronous: .givesWay,
            asynchronous: { resolver, _ in try await provider(resolver) },
            asynchronousProvider: provider
        )
    }

    /// A provider closure that does not suspend.
    static func opaque(synchronous provider: @escaping @Sendable (Resolver) throws -> T) -> Recipe {
        Recipe(
            kind: .opaque,
            synchronous: .givesWay,
            asynchronous: { resolver, _ in try provider(resolver) },
            synchronousProvider: provider
        )
    }

    /// The same recipe, followed by property injection and the awake hook when `T` is a
    /// ``PropertyInjectable`` class; property injection suspends, so there is no synchronous form.
    ///
    /// A function that returns an instance it was given — `to { (pool: Pool) in pool }` — passes
    /// on what was injected where it was built: that instance, a singleton's or the request's, is
    /// not injected again (``InjectorActor/passesOn(_:among:)``).
    func injectingProperties() -> Recipe {
        guard kind != .instance, T.self is any PropertyInjectable.Type else { return self }
        return transformed { resolver, binding, value in
            if let object = value as? any PropertyInjectable,
                !resolver.injector.passesOn(object, among: binding.dependencies.filter { $0.type is T.Type })
            {
                try await resolver.injector.injectProperties(into: object, parent: resolver.frame)
            }
            return value
        }
    }

    /// The same recipe, its value passed through each of `decorators` in turn; decorators
    /// suspend, so there is no synchronous form.
    func decorated(with decorators: [@Sendable (Resolver, T) async throws -> T]) -> Recipe {
        transformed { resolver, _, value in
            var value = value
            for decorator in decorators { value = try await decorator(resolver, value) }
            return value
        }
    }

    /// The same recipe — with and without runtime arguments — followed by `step`, which may
    /// suspend, so there is no synchronous form.
    private func transformed(_ step: @escaping @Sendable (Resolver, Binding, T) async throws -> T) -> Recipe {
        let build = asynchronous
        let withoutArguments: @Sendable (Resolver, Binding) async throws -> T = { resolver, binding in
            try await step(resolver, binding, build(resolver, binding))
        }
        var withArguments: (@Sendable (Resolver, Binding, [any Sendable]) async throws -> T)?
        if let recipe = argumentRecipe {
            withArguments = { resolver, binding, values in
                try await step(resolver, binding, recipe(resolver, binding, values))
            }
        }
        return Recipe(
            kind: kind == .instance ? .declared : kind,
            synchronous: .givesWay,
            asynchronous: { resolver, binding in try await withoutArguments(resolver, binding) },
            conformance: conformance,
            argumentRecipe: withArguments,
            argumentTypes: argumentTypes,
            argumentsRequired: argumentsRequired
        )
    }

    /// Runs the asynchronous recipe for `injector` at `frame`, with the frame published as the
    /// task's current frame, so that a recipe calling the injector directly, rather than through
    /// its resolver, still extends this resolution path; the frame is finished when the recipe
    /// returns. A provider closure that does not suspend is called as it is, without publishing
    /// the frame.
    @usableFromInline nonisolated(nonsending) func run(
        in injector: InjectorActor,
        frame: ResolutionFrame,
        for binding: Binding
    ) async throws -> T {
        let resolver = Resolver(injector: injector, frame: frame)
        defer { frame.finish() }
        // A provider that does not suspend cannot resolve anything while it runs (the Resolver's
        // methods suspend), so nothing nests below its step: it needs no task-local push.
        if let synchronousProvider { return try synchronousProvider(resolver) }
        if let asynchronousProvider {
            return try await ResolutionFrame.$current.withValue(frame) { try await asynchronousProvider(resolver) }
        }
        return try await ResolutionFrame.$current.withValue(frame) { try await asynchronous(resolver, binding) }
    }

    /// A recipe over the binding's declared dependencies.
    ///
    /// - Parameters:
    ///   - conformance: For aliases: whether the target's values are `T`s, or `nil` when that
    ///     cannot be known before one is built.
    ///   - argumentRecipe: For aliases: the recipe that forwards runtime arguments to the target.
    @usableFromInline static func declared(
        synchronous: SynchronousForm = .givesWay,
        asynchronous: nonisolated(nonsending) @escaping @Sendable (Resolver, Binding) async throws -> T
    ) -> Recipe {
        declared(synchronous: synchronous, asynchronous: asynchronous, conformance: nil)
    }

    /// A recipe over the binding's declared dependencies, with what an alias adds.
    static func declared(
        synchronous: SynchronousForm = .givesWay,
        asynchronous: nonisolated(nonsending) @escaping @Sendable (Resolver, Binding) async throws -> T,
        conformance: (@Sendable (any AnyRecipe) -> Bool?)?,
        argumentRecipe: (@Sendable (Resolver, Binding, [any Sendable]) async throws -> T)? = nil
    ) -> Recipe {
        Recipe(
            kind: .declared,
            synchronous: synchronous,
            asynchronous: asynchronous,
            conformance: conformance,
            argumentRecipe: argumentRecipe
        )
    }

    var isInstance: Bool { kind == .instance }

    var producedType: any Any.Type { T.self }

    var isAlias: Bool { conformance != nil }

    var declaresDependencies: Bool { kind == .declared }

    func targetConforms(_ target: any AnyRecipe) -> Bool? { conformance?(target) }

    func resolve(in injector: InjectorActor, binding: Binding, below parent: ResolutionFrame?) async throws
        -> any Sendable
    {
        try await ResolutionDriver(injector).resolve(binding, as: T.self, below: parent)
    }

    func stepInPlace(_ resolver: SynchronousResolver, _ binding: Binding) throws(SynchronousStop) -> any Sendable {
        try resolver.step(binding, producer: self, .inPlace)
    }

    func buildAgain(in injector: InjectorActor, frame: ResolutionFrame, for binding: Binding) async throws
        -> (box: any AnyObject & Sendable, value: any Sendable)
    {
        let value = try await run(in: injector, frame: frame, for: binding)
        return (CellValue.wrap(value), value)
    }
}

extension Recipe {
    /// A recipe's synchronous form, as given to its initializer.
    @usableFromInline enum SynchronousForm {
        /// The recipe as straight-line synchronous code.
        case recipe(@Sendable (SynchronousResolver, Binding) throws(SynchronousStop) -> T)
        /// None: a stand-in that gives way to the asynchronous path.
        case givesWay
    }
}

/// What a ``Recipe`` builds from. Not nested in the generic class, so that comparing kinds
/// in code not specialised for `T` calls no generic function.
enum RecipeKind: Sendable {
    /// A value the caller owns; ``Recipe/synchronous`` returns it.
    case instance
    /// A closure whose dependencies the injector cannot see until it runs.
    case opaque
    /// A recipe whose dependencies are the binding's declared, linked keys.
    case declared
}

/// The type-erased face of ``Recipe``, for the parts of the injector that do not know `T`.
protocol AnyRecipe: AnyObject, Sendable {
    var instance: (any Sendable)? { get }
    var isInstance: Bool { get }
    /// Whether the recipe has a synchronous form.
    var isSynchronous: Bool { get }
    var producedType: any Any.Type { get }
    /// Whether this producer resolves another bound key (`to(Concrete.self)`).
    var isAlias: Bool { get }
    /// Whether the recipe resolves exactly the binding's declared dependencies (autowiring,
    /// aliases), so that the graph below it can be checked before anything runs.
    var declaresDependencies: Bool { get }
    /// For an alias, whether `target`'s values convert to this producer's type (`nil`: unknown).
    func targetConforms(_ target: any AnyRecipe) -> Bool?
    /// Resolves the binding below `parent` (the observed startup's step, or `nil`), untyped: used
    /// to build eager singletons, and to wrap a ``Named`` parameter's value.
    func resolve(in injector: InjectorActor, binding: Binding, below parent: ResolutionFrame?) async throws
        -> any Sendable
    /// The binding's value for a graph built in place, untyped: a ``Named`` parameter's.
    func stepInPlace(_ resolver: SynchronousResolver, _ binding: Binding) throws(SynchronousStop) -> any Sendable
    /// Runs the provider once more, outside any cache: a refresh's new generation, boxed as its
    /// cell would hold it, and the value itself for its disposal.
    func buildAgain(in injector: InjectorActor, frame: ResolutionFrame, for binding: Binding) async throws
        -> (box: any AnyObject & Sendable, value: any Sendable)
}

extension Binding {
    /// The binding's producer, typed.
    ///
    /// Every declared binding's producer is a `Recipe<T>` for exactly the `T` of its key: both
    /// are made by the same `BindingBuilder<T>`. (A ``Lazy`` handle's binding is the exception,
    /// a `Recipe<T>` under a `Lazy<T>` key; no table holds it, and only its handle steps it.) Checking the key's type is therefore the proof that the
    /// downcast is right, and unlike `as?` it needs no generic metadata at run time.
    @usableFromInline func producer<T: Sendable>(as type: T.Type) -> Recipe<T>? {
        guard produces(type) else { return nil }
        return unsafeDowncast(producer, to: Recipe<T>.self)
    }

    /// The built singleton of this binding, as a `T`, read without suspending: the hit path of
    /// `get` and ``Resolver/get(_:named:)``, a plain function so that it allocates no
    /// asynchronous frame. `nil` for anything else (not a singleton, not built, another type),
    /// which the whole path then answers.
    func builtSingleton<T: Sendable>(as type: T.Type) -> T? {
        guard lifetime.staysBuilt, produces(type) else { return nil }
        return lifetime.cell?.value(as: type)
    }

    /// Whether this binding's values are `T`s: its key's type is `T`.
    func produces<T>(_ type: T.Type) -> Bool {
        ObjectIdentifier(key.type) == ObjectIdentifier(T.self)
    }
}
