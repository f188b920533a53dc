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

    /// Sets `object`'s declared properties, resolving below `parent`, then awakes it.
    nonisolated func injectProperties(into object: some PropertyInjectable, parent: ResolutionFrame?) async throws {
        for property in InjectedProperty.all(of: type(of: object)) {
            try await property.assign(object, self, parent)
        }
        try await object.awakeFromInjection()
    }
}
