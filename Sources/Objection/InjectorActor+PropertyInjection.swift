/// Injecting the properties of an object built elsewhere (`PropertyInjectable`).
extension InjectorActor {
    /// Sets the declared properties of an object built elsewhere, then calls its
    /// ``PropertyInjectable/awakeFromInjection()`` (Objection's `injectDependencies:`).
    ///
    /// ```swift
    /// let controller = LegacyController()   // built by a framework, not the injector
    /// try await injector.injectDependencies(into: controller)
    /// ```
    ///
    /// - Parameter object: The object to fill.
    /// - Throws: Like ``get(_:named:)``, for the first property that cannot be resolved;
    ///   ``InjectionError/Code/shutDown`` once this injector has shut down, before any property
    ///   is set or the object awoken, whether or not it declares properties.
    public nonisolated func injectDependencies(into object: some PropertyInjectable) async throws {
        try checkNotShutDown()
        try await injectProperties(into: object, parent: ResolutionFrame.active)
    }

    /// Whether `object` is the built value of one of `keys` here — a singleton's, or the nearest
    /// request scope's instance — which a function it was given to passes on: it was injected
    /// where it was built, once. A transient passed on is not told apart, and is injected again.
    nonisolated func passesOn(_ object: AnyObject, among keys: [BindingKey]) -> Bool {
        keys.contains { key in
            guard let binding = table.binding(for: key) else { return false }
            let cell: (any CellAccess)? = binding.lifetime.cell ?? nearestScope?.slot(for: binding)
            let built: (any AnyObject & Sendable)? = cell?.withState { $0.value }
            return built === object
        }
    }

    /// Sets `object`'s declared properties, resolving below `parent`, then awakes it.
    nonisolated func injectProperties(into object: some PropertyInjectable, parent: ResolutionFrame?) async throws {
        for property in InjectedProperty.all(of: type(of: object)) {
            try await property.assign(object, self, parent)
        }
        try await object.awakeFromInjection()
    }
}
