/// Chooses what a key resolves to. Returned by ``Binder/bind(_:named:fileID:line:)``.
///
/// Each binding takes exactly one target:
///
/// ```swift
/// binder.bind(Config.self).toInstance(config)                          // a value you own
/// binder.bind(Clock.self).to { _ in SystemClock() }                    // a provider closure
/// binder.bind(UserRepository.self).to(UserRepository.init)             // autowired initializer
/// binder.bind((any Database).self).to(PostgresDatabase.self)           // another bound type
/// binder.bind(ConnectionPool.self).to(provider: PoolProvider(size: 8)) // a provider object
/// ```
public struct BindingBuilder<T: Sendable> {
    let binder: Binder
    let index: Int

    init(binder: Binder, index: Int) {
        self.binder = binder
        self.index = index
    }

    /// Binds the key to an existing value, returned as-is by every `get`.
    ///
    /// The caller owns the value; the injector never builds or disposes it.
    ///
    /// - Parameter instance: The value to return.
    public func toInstance(_ instance: T) {
        setTarget(Recipe.instance(instance))
    }

    /// Binds the key to a provider closure, which may suspend and throw.
    ///
    /// The closure receives a ``Resolver`` for its own dependencies; resolving through it keeps
    /// the resolution path, so cycles and missing bindings are reported with the full chain.
    ///
    /// ```swift
    /// binder.bind((any Database).self)
    ///     .to { r in try await PostgresDatabase(config: r.get(Config.self)) }
    ///     .asSingleton()
    /// ```
    ///
    /// - Parameter provider: Builds one value per call.
    /// - Returns: A builder to choose the binding's scope.
    ///
    /// A closure held in a variable binds the same way: its `Resolver` parameter is what it
    /// receives, never a dependency to autowire.
    ///
    /// ```swift
    /// let makeEngine: @Sendable (Resolver) async throws -> Engine = { _ in Engine() }
    /// binder.bind(Engine.self).to(makeEngine)
    /// ```
    @discardableResult
    public func to(
        _ provider: nonisolated(nonsending) @escaping @Sendable (Resolver) async throws -> T
    ) -> ScopedBindingBuilder<T> {
        setTarget(Recipe.opaque(provider))
    }

    /// Binds the key to a synchronous provider closure.
    ///
    /// The same as the `async` overload; it exists so that a closure that does not suspend, such
    /// as `{ r in WidgetFactory(resolver: r) }`, is taken as a provider and never as a function to
    /// autowire.
    ///
    /// - Parameter provider: Builds one value per call.
    /// - Returns: A builder to choose the binding's scope.
    @discardableResult
    public func to(_ provider: @escaping @Sendable (Resolver) throws -> T) -> ScopedBindingBuilder<T> {
        setTarget(Recipe.opaque(synchronous: provider))
    }

    /// Binds the key to a function whose parameters are resolved by type: initializer autowiring.
    ///
    /// Works with any arity, and with synchronous, `async` and `throws` functions. The parameter
    /// types are known when the injector is created, so each one is linked to its binding once
    /// rather than looked up on every `get`.
    ///
    /// ```swift
    /// final class UserRepository: Sendable {
    ///     init(database: any Database, config: Config) { … }
    /// }
    /// binder.bind(UserRepository.self).to(UserRepository.init)
    /// ```
    ///
    /// - Parameter function: Builds one value from its resolved parameters.
    /// - Returns: A builder to choose the binding's scope.
    @inlinable @discardableResult
    public func to<each Dependency: Sendable>(
        _ function: @escaping @Sendable (repeat each Dependency) async throws -> T
    ) -> ScopedBindingBuilder<T> {
        let dependencies = BindingKey.parameters(repeat (each Dependency).self)
        // A provider closure held in a variable lands here, its `Resolver` taken for a
        // dependency: it is a provider (a literal closure picks the overload above).
        if dependencies == [BindingKey(Resolver.self)] {
            return setTarget(
                Recipe.opaque { resolver in
                    try await function(repeat try Resolver.passed(resolver, as: (each Dependency).self))
                })
        }
        let producer = Recipe<T>.declared { resolver, binding in
            var position = 0
            return try await function(
                repeat try await resolver.next((each Dependency).self, of: binding, at: &position))
        }
        return setTarget(producer, dependencies: dependencies)
    }

    /// Binds the key to a synchronous function whose parameters are resolved by type.
    ///
    /// Behaves like the `async` overload. A synchronous initializer also lets the injector build
    /// a transient graph with plain function calls once the singletons it reads are built, which
    /// is what makes autowired graphs nearly as cheap as hand-written construction.
    ///
    /// ```swift
    /// binder.bind(Car.self).to(Car.init)   // init(engine: Engine, wheels: Wheels)
    /// ```
    ///
    /// - Parameter function: Builds one value from its resolved parameters.
    /// - Returns: A builder to choose the binding's scope.
    @inlinable @discardableResult
    public func to<each Dependency: Sendable>(
        _ function: @escaping @Sendable (repeat each Dependency) throws -> T
    ) -> ScopedBindingBuilder<T> {
        let dependencies = BindingKey.parameters(repeat (each Dependency).self)
        let producer = Recipe<T>.declared(
            synchronous: .recipe { resolver, binding throws(SynchronousStop) in
                var position = 0
                do {
                    return try function(repeat try resolver.next((each Dependency).self, of: binding, at: &position))
                } catch let stop as SynchronousStop {
                    throw stop
                } catch {
                    throw .failed(error)
                }
            },
            asynchronous: { resolver, binding in
                var position = 0
                return try function(repeat try await resolver.next((each Dependency).self, of: binding, at: &position))
            }
        )
        return setTarget(producer, dependencies: dependencies)
    }

    /// Binds the key to another bound type: a protocol or superclass to its implementation
    /// (Objection's class-to-protocol binding).
    ///
    /// The target keeps its own scope: if `PostgresDatabase` is a singleton, every
    /// `get((any Database).self)` returns that one instance.
    ///
    /// ```swift
    /// binder.bind(PostgresDatabase.self).to(PostgresDatabase.init).asSingleton()
    /// binder.bind((any Database).self).to(PostgresDatabase.self)
    /// binder.bind((any Database).self, named: "reports").to(PostgresDatabase.self, named: "replica")
    /// ```
    ///
    /// An unbound target is reported when the injector is created. Whether the target conforms is
    /// checked then for class hierarchies and instance targets, otherwise on first resolution,
    /// as ``InjectionError/Code/typeMismatch``.
    ///
    /// - Parameters:
    ///   - concrete: The bound type to resolve instead.
    ///   - name: The name of the target's binding, or `nil` for its unnamed binding.
    /// - Returns: A builder to choose the binding's scope.
    @discardableResult
    public func to<Concrete: Sendable>(_ concrete: Concrete.Type, named name: String? = nil) -> ScopedBindingBuilder<T>
    {
        @Sendable func convert(
            _ value: Concrete,
            for binding: Binding,
            path: @autoclosure () -> [BindingKey]
        ) throws(InjectionError) -> T {
            guard let converted = value as? T else {
                throw InjectionError.typeMismatch(binding.key, produced: Concrete.self, path: path())
            }
            return converted
        }
        let producer = Recipe<T>.declared(
            synchronous: .recipe { resolver, binding throws(SynchronousStop) in
                let value = try resolver.dependency(Concrete.self, at: 0, of: binding)
                do { return try convert(value, for: binding, path: [binding.key]) } catch { throw .failed(error) }
            },
            asynchronous: { resolver, binding in
                let value = try await resolver.dependency(Concrete.self, at: 0, of: binding)
                return try convert(value, for: binding, path: resolver.keys)
            },
            conformance: { target in
                if let instance = target.instance { return instance is T }
                if T.self is AnyClass { return Concrete.self is T.Type }
                return nil
            },
            argumentRecipe: { resolver, binding, arguments in
                // Runtime arguments pass through to the target, as Objection's and Blindside's
                // class bindings forward them.
                let value = try await resolver.injector.resolve(
                    binding.dependencies[0],
                    as: Concrete.self,
                    arguments: RuntimeArguments(values: arguments),
                    parent: resolver.frame,
                    forwarded: true
                )
                return try convert(value, for: binding, path: resolver.keys)
            }
        )
        return setTarget(producer, dependencies: [BindingKey(Concrete.self, named: name)])
    }

    /// Binds the key to a ``Provider`` object (Objection's provider classes).
    ///
    /// ```swift
    /// binder.bind(ConnectionPool.self).to(provider: PoolProvider(size: 8)).asSingleton()
    /// ```
    ///
    /// - Parameter provider: Builds one value per call.
    /// - Returns: A builder to choose the binding's scope.
    @discardableResult
    public func to<P: Provider>(provider: P) -> ScopedBindingBuilder<T> where P.Value == T {
        setTarget(Recipe.opaque { resolver in try await provider.provide(resolver) })
    }

    /// Sets the binding's one target.
    ///
    /// - Parameter constructs: Whether the injector itself constructs the value, so that a
    ///   ``PropertyInjectable`` value gets its properties and awake hook here, once, where it is
    ///   built: true for autowired functions (and ``Injectable`` declarations); false for values
    ///   returned as built (instances, provider closures and objects) and for aliases, whose target
    ///   injects its own instances.
    @discardableResult
    @usableFromInline func setTarget(
        _ producer: Recipe<T>,
        dependencies: [BindingKey] = [],
        constructs: Bool? = nil
    ) -> ScopedBindingBuilder<T> {
        let injectsProperties = constructs ?? (producer.kind == .declared && !producer.isAlias)
        binder.declarations[index].targetCount += 1
        binder.declarations[index].producer = injectsProperties ? producer.injectingProperties() : producer
        binder.declarations[index].dependencies = dependencies
        binder.declarations[index].propertyDependencies = []
        if injectsProperties, T.self is any PropertyInjectable.Type, let type = T.self as? AnyClass {
            binder.declarations[index].propertyDependencies = InjectedProperty.all(of: type).map(\.key)
        }
        return ScopedBindingBuilder(binder: binder, index: index)
    }
}

/// Chooses the scope of a binding whose target has been set, and how its instances are disposed.
/// The default scope is ``Scope/transient``.
///
/// ```swift
/// binder.bind(Engine.self).to(Engine.init).asSingleton()
/// binder.bind(MetricsSink.self).to { _ in MetricsSink() }.asEagerSingleton()
/// binder.bind(Connection.self).to(Connection.open).inScope(.scoped).onDispose { try await $0.close() }
/// ```
public struct ScopedBindingBuilder<T: Sendable> {
    let binder: Binder
    let index: Int

    init(binder: Binder, index: Int) {
        self.binder = binder
        self.index = index
    }

    /// Caches one instance per injector, built on first use. Same as `inScope(.singleton)`.
    ///
    /// - Returns: This builder, to add an `onDispose` hook.
    @discardableResult
    public func asSingleton() -> ScopedBindingBuilder<T> {
        inScope(.singleton)
    }

    /// Caches one instance per injector and builds it while the injector is created, so
    /// `InjectorActor(modules:)` fails fast if it cannot be built. Independent eager singletons
    /// are built concurrently.
    ///
    /// - Returns: This builder, to add an `onDispose` hook.
    @discardableResult
    public func asEagerSingleton() -> ScopedBindingBuilder<T> {
        binder.declarations[index].isEager = true
        return inScope(.singleton)
    }

    /// Caches one instance per injector, built on first use, that ``InjectorActor/refresh(within:)``
    /// rebuilds while the injector runs. Same as `inScope(.refreshable)`.
    ///
    /// A refresh builds the new instance before it replaces the old one; a request scope keeps
    /// the instance it first read for its whole life, and the old instance is disposed after the
    /// last scope that used it ends. A refresh that fails keeps the old one serving. A singleton
    /// may not hold a refreshable instance (it would keep a stale one): it depends on
    /// `Factory<T>` and asks per use.
    ///
    /// ```swift
    /// binder.bind(RateLimiter.self).to { r in RateLimiter(limit: try r.setting("rate.limit")) }.asRefreshable()
    /// // later, when the settings changed:
    /// try await injector.refresh(RateLimiter.self)
    /// ```
    ///
    /// - Returns: This builder, to add an `onDispose` hook.
    @discardableResult
    public func asRefreshable() -> ScopedBindingBuilder<T> {
        inScope(.refreshable)
    }

    /// Sets the binding's scope.
    ///
    /// - Parameter scope: The lifetime of the instances this binding builds.
    /// - Returns: This builder, to add an `onDispose` hook.
    @discardableResult
    public func inScope(_ scope: Scope) -> ScopedBindingBuilder<T> {
        binder.declarations[index].scope = scope
        return self
    }

    /// Disposes each instance this binding builds with `hook` instead of `AsyncDisposable`'s
    /// `dispose()`: at shutdown for singletons, at the end of the request for scoped instances.
    /// Transient instances are not tracked, so the hook never runs for them.
    ///
    /// - Parameter hook: Releases one instance. Its error is reported with the others of the same
    ///   shutdown and does not stop the remaining disposals.
    /// - Returns: This builder.
    @discardableResult
    public func onDispose(_ hook: @escaping @Sendable (T) async throws -> Void) -> ScopedBindingBuilder<T> {
        // Not forwarded to the two-argument form: one more async closure per disposal showed in
        // the per-request benchmark.
        binder.declarations[index].dispose = { value, _ in
            if let value = value as? T { try await hook(value) }
        }
        return self
    }

    /// Disposes each instance this binding builds with `hook`, which learns how the work ended:
    /// whether the request scope's body returned or threw (see ``ScopeOutcome``). Otherwise as
    /// ``onDispose(_:)-((T)->Void)``.
    ///
    /// ```swift
    /// binder.bind(Transaction.self).to(Transaction.begin).inScope(.scoped).onDispose { transaction, outcome in
    ///     if outcome.isSuccess { try await transaction.commit() } else { try await transaction.rollBack() }
    /// }
    /// ```
    ///
    /// - Parameter hook: Releases one instance after work that ended with the given outcome.
    /// - Returns: This builder.
    @discardableResult
    public func onDispose(
        _ hook: @escaping @Sendable (T, ScopeOutcome) async throws -> Void
    ) -> ScopedBindingBuilder<T> {
        binder.declarations[index].dispose = { value, outcome in
            if let value = value as? T { try await hook(value, outcome) }
        }
        return self
    }
}
