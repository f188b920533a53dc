/// Resolving a binding that takes runtime arguments (`withArguments`).
extension InjectorActor {
    /// Resolves a binding that takes runtime arguments, passing `arguments`.
    ///
    /// ```swift
    /// let car = try await injector.get(ConfigurableCar.self, arguments: "VW", "Passat")
    /// ```
    ///
    /// - Parameters:
    ///   - type: The bound type.
    ///   - name: The binding's name, or `nil` for the unnamed binding.
    ///   - first: The first runtime argument.
    ///   - rest: The other runtime arguments, in the order the binding declares them.
    /// - Returns: A new instance built from the arguments.
    /// - Throws: ``InjectionError/Code/argumentMismatch`` when the binding takes other arguments
    ///   (or none); otherwise like ``get(_:named:)``.
    public nonisolated func get<T: Sendable, First: Sendable, each Argument: Sendable>(
        _ type: T.Type,
        named name: String? = nil,
        arguments first: First,
        _ rest: repeat each Argument
    ) async throws -> T {
        let key = BindingKey(type, named: name)
        let arguments = RuntimeArguments(first, repeat each rest)
        do {
            return try await resolve(key, as: type, arguments: arguments, parent: ResolutionFrame.active)
        } catch {
            reportFailure(of: key, error)
            throw error
        }
    }

    /// Resolves `key` with runtime arguments below `parent`.
    nonisolated func resolve<T: Sendable>(
        _ key: BindingKey,
        as type: T.Type,
        arguments: RuntimeArguments,
        parent: ResolutionFrame?
    ) async throws -> T {
        try checkNotShutDown()
        guard let binding = try binding(for: key, as: type) else {
            throw InjectionError.missingBinding(key, requestedBy: parent)
        }
        guard let producer = binding.producer(as: type), let recipe = producer.argumentRecipe else {
            throw InjectionError.argumentMismatch(key, expected: [], given: arguments.types)
        }
        let frame = try enter(binding, below: parent)
        defer { frame.finish() }
        // Published as the task's current step, as every provider's is: a provider that asks the
        // injector itself, rather than its resolver, continues this path (a cycle is refused).
        return try await ResolutionFrame.$current.withValue(frame) {
            try await recipe(Resolver(injector: self, frame: frame), binding, arguments.values)
        }
    }
}
