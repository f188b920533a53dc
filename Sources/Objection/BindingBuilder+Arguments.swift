extension BindingBuilder {
    /// Binds the key to a provider that takes runtime arguments in addition to injected
    /// dependencies (Objection's `getObjectWithArgs`, Blindside's `BS_DYNAMIC`, Swinject's
    /// arguments). Callers pass them with ``InjectorActor/get(_:named:arguments:_:)``; a `get`
    /// without arguments uses the ``ArgumentBindingBuilder/defaults(_:_:)``, if any.
    ///
    /// ```swift
    /// binder.bind(ConfigurableCar.self)
    ///     .to(arguments: String.self, String.self) { r, make, model in
    ///         try await ConfigurableCar(engine: r.get(Engine.self), make: make, model: model)
    ///     }
    ///     .defaults("VW", "Golf")
    ///
    /// let passat = try await injector.get(ConfigurableCar.self, arguments: "VW", "Passat")
    /// let golf = try await injector.get(ConfigurableCar.self)   // the defaults
    /// ```
    ///
    /// A binding with arguments is transient unless given a scope: every call builds a new
    /// instance from its arguments. In a caching scope the call that builds the instance passes
    /// its arguments (see ``ArgumentBindingBuilder``). A wrong number or type of arguments throws
    /// ``InjectionError/Code/argumentMismatch``, naming the types.
    ///
    /// - Parameters:
    ///   - first: The first argument's type.
    ///   - rest: The other arguments' types, in order.
    ///   - provider: Builds one value from a resolver and the arguments.
    /// - Returns: A builder to set default arguments and the scope.
    @discardableResult
    public func to<First: Sendable, each Argument: Sendable>(
        arguments first: First.Type,
        _ rest: repeat (each Argument).Type,
        provider: @escaping @Sendable (Resolver, First, repeat each Argument) async throws -> T
    ) -> ArgumentBindingBuilder<T, First, repeat each Argument> {
        let types = Self.argumentTypes(First.self, repeat (each Argument).self)
        let recipe: @Sendable (Resolver, Binding, [any Sendable]) async throws -> T = { resolver, binding, values in
            var position = try Self.startReading(values, for: binding, expected: types, path: resolver.keys)
            return try await provider(
                resolver,
                try Self.argument(First.self, at: &position, of: values, for: binding, expected: types),
                repeat try Self.argument((each Argument).self, at: &position, of: values, for: binding, expected: types)
            )
        }
        return argumentTarget(types: types, recipe: recipe)
    }

    /// Sets a recipe taking runtime arguments of `types` as the binding's target.
    private func argumentTarget<First: Sendable, each Argument: Sendable>(
        types: [any Any.Type],
        recipe: @escaping @Sendable (Resolver, Binding, [any Sendable]) async throws -> T
    ) -> ArgumentBindingBuilder<T, First, repeat each Argument> {
        setTarget(Recipe<T>.withArguments(types: types, recipe: recipe, defaults: nil))
        return ArgumentBindingBuilder(binder: binder, index: index, types: types, recipe: recipe)
    }

    /// The types of a binding's runtime arguments, in order.
    private static func argumentTypes<First, each Argument>(
        _ first: First.Type,
        _ rest: repeat (each Argument).Type
    ) -> [any Any.Type] {
        var types: [any Any.Type] = [First.self]
        repeat types.append((each Argument).self)
        return types
    }

    /// Checks the number of runtime arguments; returns the position of the first.
    private static func startReading(
        _ values: [any Sendable],
        for binding: Binding,
        expected: [any Any.Type],
        path: [BindingKey]
    ) throws -> Int {
        guard values.count == expected.count else {
            throw InjectionError.argumentMismatch(
                binding.key,
                expected: expected,
                given: values.map { Swift.type(of: $0) },
                path: path
            )
        }
        return 0
    }

    /// Binds the key to an ``ArgumentProvider`` object, which receives the runtime arguments of
    /// each `get` as one tuple (Objection's argument-aware providers, Blindside's providers with
    /// `BS_DYNAMIC`).
    ///
    /// ```swift
    /// struct CarProvider: ArgumentProvider {
    ///     func provide(_ resolver: Resolver, arguments: (String, String)) async throws -> ConfigurableCar {
    ///         try await ConfigurableCar(engine: resolver.get(Engine.self), make: arguments.0, model: arguments.1)
    ///     }
    /// }
    ///
    /// binder.bind(ConfigurableCar.self).to(provider: CarProvider(), arguments: String.self, String.self)
    /// let passat = try await injector.get(ConfigurableCar.self, arguments: "VW", "Passat")
    /// ```
    ///
    /// - Parameters:
    ///   - provider: Builds one value from a resolver and the arguments.
    ///   - first: The first argument's type.
    ///   - rest: The other arguments' types, in order; together they make `P.Arguments`.
    /// - Returns: A builder to set default arguments and the scope.
    @discardableResult
    public func to<P: ArgumentProvider, First: Sendable, each Argument: Sendable>(
        provider: P,
        arguments first: First.Type,
        _ rest: repeat (each Argument).Type
    ) -> ArgumentBindingBuilder<T, First, repeat each Argument>
    where P.Value == T, P.Arguments == (First, repeat each Argument) {
        let types = Self.argumentTypes(First.self, repeat (each Argument).self)
        let recipe: @Sendable (Resolver, Binding, [any Sendable]) async throws -> T = { resolver, binding, values in
            var position = try Self.startReading(values, for: binding, expected: types, path: resolver.keys)
            let arguments = (
                try Self.argument(First.self, at: &position, of: values, for: binding, expected: types),
                repeat try Self.argument((each Argument).self, at: &position, of: values, for: binding, expected: types)
            )
            return try await provider.provide(resolver, arguments: arguments)
        }
        return argumentTarget(types: types, recipe: recipe)
    }
}

/// Sets the default arguments and the scope of a binding with runtime arguments. Returned by
/// ``BindingBuilder/to(arguments:_:provider:)``.
///
/// A binding with runtime arguments is transient unless given a scope: each call builds from
/// its arguments. In a caching scope the call that builds the instance passes its arguments (or
/// the defaults), and later calls read that instance, whatever arguments they pass, as
/// Objection's singletons did; arguments of the wrong number or types are refused either way.
///
/// ```swift
/// binder.bind(ConfigurableCar.self)
///     .to(arguments: String.self, String.self) { r, make, model in … }
///     .defaults("VW", "Golf")
///     .asSingleton()
/// ```
public struct ArgumentBindingBuilder<T: Sendable, First: Sendable, each Argument: Sendable> {
    let binder: Binder
    let index: Int
    let types: [any Any.Type]
    let recipe: @Sendable (Resolver, Binding, [any Sendable]) async throws -> T

    /// The arguments a `get` without arguments uses (Objection's `objection_initializer` default
    /// arguments).
    ///
    /// - Parameters:
    ///   - first: The first default argument.
    ///   - rest: The other default arguments, in order.
    /// - Returns: A builder to choose the binding's scope.
    @discardableResult
    public func defaults(_ first: First, _ rest: repeat each Argument) -> ScopedBindingBuilder<T> {
        var values: [any Sendable] = [first]
        repeat values.append(each rest)
        let defaults = values
        binder.declarations[index].producer = Recipe<T>.withArguments(
            types: types,
            recipe: recipe,
            defaults: { [recipe] resolver, binding in try await recipe(resolver, binding, defaults) }
        )
        return ScopedBindingBuilder(binder: binder, index: index)
    }

    /// Sets the scope of a binding without default arguments; see ``ScopedBindingBuilder``.
    ///
    /// ```swift
    /// binder.bind(Tenant.self).to(arguments: String.self) { _, id in Tenant(id: id) }.inScope(.scoped)
    /// ```
    ///
    /// - Parameter scope: The lifetime of the instances this binding builds.
    /// - Returns: A builder to add an `onDispose` hook.
    @discardableResult
    public func inScope(_ scope: Scope) -> ScopedBindingBuilder<T> {
        ScopedBindingBuilder(binder: binder, index: index).inScope(scope)
    }
}

extension BindingBuilder {
    /// The runtime argument at `position`, as `Value`, advancing `position`.
    static func argument<Value: Sendable>(
        _ type: Value.Type,
        at position: inout Int,
        of values: [any Sendable],
        for binding: Binding,
        expected: [any Any.Type]
    ) throws -> Value {
        defer { position += 1 }
        guard let value = values[position] as? Value else {
            throw InjectionError.argumentMismatch(
                binding.key,
                expected: expected,
                given: values.map { Swift.type(of: $0) }
            )
        }
        return value
    }
}

extension Resolver {
    /// Resolves a binding that takes runtime arguments, passing `arguments`, on this resolver's
    /// path.
    ///
    /// - Parameters:
    ///   - type: The bound type.
    ///   - name: The binding's name, or `nil` for the unnamed binding.
    ///   - first: The first runtime argument.
    ///   - rest: The other runtime arguments, in the order the binding declares them.
    /// - Returns: The instance the binding's scope dictates: for a transient binding, a new one
    ///   built from the arguments.
    /// - Throws: Like ``InjectorActor/get(_:named:arguments:_:)``.
    public func get<T: Sendable, First: Sendable, each Argument: Sendable>(
        _ type: T.Type,
        named name: String? = nil,
        arguments first: First,
        _ rest: repeat each Argument
    ) async throws -> T {
        try await injector.resolve(
            BindingKey(type, named: name),
            as: type,
            arguments: RuntimeArguments(first, repeat each rest),
            parent: path
        )
    }
}

extension Factory {
    /// Resolves a `T` whose binding takes runtime arguments, passing `arguments`.
    ///
    /// ```swift
    /// let makeCar = try await injector.get(Factory<ConfigurableCar>.self)
    /// let passat = try await makeCar(arguments: "VW", "Passat")
    /// ```
    ///
    /// - Parameters:
    ///   - first: The first runtime argument.
    ///   - rest: The other runtime arguments, in the order the binding declares them.
    /// - Returns: The instance the binding's scope dictates: for a transient binding, a new one
    ///   built from the arguments.
    /// - Throws: Like ``InjectorActor/get(_:named:arguments:_:)``.
    public func callAsFunction<First: Sendable, each Argument: Sendable>(
        arguments first: First,
        _ rest: repeat each Argument
    ) async throws -> T {
        try await objects.get(T.self, named: name, arguments: first, repeat each rest)
    }
}

/// Runtime arguments, erased so that bindings of every arity share one path.
struct RuntimeArguments: Sendable {
    let values: [any Sendable]
    let types: [any Any.Type]

    init<each Argument: Sendable>(_ arguments: repeat each Argument) {
        var values: [any Sendable] = []
        var types: [any Any.Type] = []
        repeat values.append(each arguments)
        repeat types.append((each Argument).self)
        self.values = values
        self.types = types
    }

    /// Arguments passed on from another binding (an alias to its target).
    init(values: [any Sendable]) {
        self.values = values
        self.types = values.map { type(of: $0) }
    }

    /// Whether these are arguments of `expected`, in order: what a binding's recipe would read
    /// them as (each value `as?` its type).
    func match(_ expected: [any Any.Type]) -> Bool {
        guard values.count == expected.count else { return false }
        for (value, type) in zip(values, expected) where !Self.value(value, is: type) { return false }
        return true
    }

    private static func value<Expected>(_ value: any Sendable, is type: Expected.Type) -> Bool {
        value is Expected
    }
}
