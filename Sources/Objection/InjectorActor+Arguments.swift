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

    /// Resolves `key` with runtime arguments below `parent`: the binding's own step, with a
    /// recipe that passes `arguments` (``Recipe/applying(_:to:path:)``). The lifetime decides as it
    /// does without arguments: a transient is built from them each time; a cached instance
    /// (singleton, scoped, custom-scoped) is built from the arguments of the call that builds
    /// it, and read by the calls after it, whatever their arguments, as Objection's singletons
    /// were.
    nonisolated func resolve<T: Sendable>(
        _ key: BindingKey,
        as type: T.Type,
        arguments: RuntimeArguments,
        parent: ResolutionFrame?
    ) async throws -> T {
        guard !isShutDown else { throw InjectionError.shutDown(isScope: isScope, key: key) }
        guard let binding = try binding(for: key, as: type) else {
            throw InjectionError.missingBinding(key, requestedBy: parent)
        }
        guard let producer = binding.producer(as: type) else {
            throw InjectionError.argumentMismatch(key, expected: [], given: arguments.types)
        }
        let applied = try producer.applying(arguments, to: key, path: (parent?.keys ?? []) + [key])
        return try await resolve(binding, producer: applied, below: parent)
    }
}
