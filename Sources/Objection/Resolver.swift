/// What a provider uses to resolve its own dependencies.
///
/// A resolver offers the same `get`, `get(_:named:)` and `getIfBound` as the injector, and carries
/// the resolution path of the request being served, so a missing binding deep in a graph is
/// reported with every key that led to it and a cycle is caught instead of hanging. It is
/// `Sendable`: pass it into `async let` or a task group freely.
///
/// A value may keep its resolver, as a factory does, to resolve later; each later call starts a
/// new path. The resolver holds its injector strongly, so a singleton that keeps one keeps its
/// injector alive until ``InjectorActor/shutdown(within:)`` empties the singleton's cell.
///
/// ```swift
/// binder.bind(CheckoutService.self).to { r in
///     async let orders = r.get(OrderService.self)
///     async let payments = r.get((any PaymentGateway).self)
///     return try await CheckoutService(orders: orders, payments: payments)
/// }
/// ```
public struct Resolver: Sendable {
    @usableFromInline let injector: InjectorActor
    /// The step of the provider this resolver serves; `nil` for a transient provider closure that
    /// does not suspend, which runs without a step of its own: it cannot resolve anything while it
    /// runs, so nothing can nest below it.
    let frame: ResolutionFrame?

    init(injector: InjectorActor, frame: ResolutionFrame?) {
        self.injector = injector
        self.frame = frame
    }

    /// The step to resolve below: this resolver's, while its provider runs. A resolver kept past
    /// its provider's return starts a new path, so the old one cannot make a false cycle.
    @usableFromInline var path: ResolutionFrame? {
        guard let frame, frame.isActive else { return nil }
        return frame
    }

    /// The keys from the outermost request to this resolver's step, for errors.
    var keys: [BindingKey] { frame?.keys ?? [] }

    /// The keys being resolved, from the outermost request to the binding this resolver's
    /// provider builds: the path an error of the provider's own should name, as
    /// ``InjectionError/invalidSetting(_:_:path:)`` does. Empty once the provider has returned.
    ///
    /// ```swift
    /// binder.bind(Mailer.self).to { r in
    ///     logger.debug("building \(r.resolutionPath.map(\.description).joined(separator: " -> "))")
    ///     return Mailer()
    /// }
    /// ```
    public var resolutionPath: [BindingKey] { path?.keys ?? [] }

    /// Resolves the binding for `type`, optionally qualified by `name`.
    ///
    /// - Parameters:
    ///   - type: The bound type to resolve.
    ///   - name: The binding's name, or `nil` for the unnamed binding.
    /// - Returns: The instance the binding's scope dictates.
    /// - Throws: ``InjectionError`` (missing binding, cycle, depth) or the error of a provider.
    @inlinable
    nonisolated(nonsending) public func get<T: Sendable>(
        _ type: T.Type = T.self,
        named name: String? = nil
    ) async throws -> T {
        try await ResolutionDriver(injector).value(for: BindingKey(type, named: name), as: type, below: path)
    }

    /// Sets the declared properties of `object`, which this resolver's provider built itself,
    /// then calls its ``PropertyInjectable/awakeFromInjection()``, and returns it: what the
    /// injector does for a type it constructs, for a value a closure returns — a binding with
    /// runtime arguments, say (Objection's `getObjectWithArgs` on a class with
    /// `objection_requires`). The properties are resolved below this provider's step, so a
    /// missing one is reported with its path and a cycle through them is caught.
    ///
    /// ```swift
    /// binder.bind(Car.self).to(arguments: String.self) { r, model in
    ///     try await r.injectDependencies(into: Car(model: model))   // its engine, then awake
    /// }
    /// ```
    ///
    /// - Parameter object: The object to fill.
    /// - Returns: `object`, filled and awoken.
    /// - Throws: Like ``get(_:named:)``, for the first property that cannot be resolved; what
    ///   the awake hook throws; ``InjectionError/Code/shutDown`` once the injector has shut down,
    ///   before anything is set or awoken.
    @discardableResult
    nonisolated(nonsending) public func injectDependencies<Object: PropertyInjectable>(
        into object: Object
    ) async throws -> Object {
        try injector.checkNotShutDown()
        try await injector.injectProperties(into: object, parent: path)
        return object
    }

    /// Resolves the binding for `type` if one exists.
    ///
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - name: The binding's name, or `nil` for the unnamed binding.
    /// - Returns: The instance, or `nil` when the key itself is unbound.
    /// - Throws: Like ``get(_:named:)`` for a bound key: a missing *dependency* still throws.
    nonisolated(nonsending) public func getIfBound<T: Sendable>(
        _ type: T.Type = T.self,
        named name: String? = nil
    ) async throws -> T? {
        try await injector.resolveIfBound(BindingKey(type, named: name), as: type, below: path)
    }

    /// Resolves the `position`-th declared dependency of `binding` and advances `position`: one
    /// step of an autowired parameter pack.
    @usableFromInline nonisolated(nonsending) func next<T: Sendable>(
        _ type: T.Type,
        of binding: Binding,
        at position: inout Int
    ) async throws -> T {
        defer { position += 1 }
        return try await dependency(type, at: position, of: binding)
    }

    /// Resolves the `position`-th declared dependency of `binding`: through its pre-linked index
    /// when `binding` belongs to the resolving injector's own table, otherwise by key, so that a
    /// child's overrides reach the bindings it inherits.
    nonisolated(nonsending) func dependency<T: Sendable>(
        _ type: T.Type,
        at position: Int,
        of binding: Binding
    ) async throws -> T {
        guard let dependency = injector.table.dependency(position, of: binding) else {
            // Not bound: perhaps a handle the injector provides (`Factory<T>`, `Lazy<T>`).
            return try await injector.resolve(binding.dependencies[position], as: type, below: frame)
        }
        return try await ResolutionDriver(injector).resolve(dependency, as: type, below: frame)
    }
}

extension Resolver {
    /// `resolver` as the parameter type `D` of a provider closure held in a variable, which is
    /// `Resolver` itself (the caller checked the closure's parameter types).
    @usableFromInline static func passed<D>(_ resolver: Resolver, as type: D.Type) throws(InjectionError) -> D {
        guard let parameter = resolver as? D else {
            throw .typeMismatch(BindingKey(D.self), produced: Resolver.self, path: resolver.keys)
        }
        return parameter
    }
}
