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
    /// - Returns: The instance the binding's scope dictates: for a transient binding, a new one
    ///   built from the arguments.
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
    /// recipe that passes `arguments` (``Recipe/applying(_:)``). The lifetime decides as it does
    /// without arguments: a transient is built from them each time; a cached instance
    /// (singleton, scoped, custom-scoped) is built from the arguments of the call that builds
    /// it, and read by the calls after it, whatever their arguments, as Objection's singletons
    /// were. The arguments are checked first, so a wrong one is refused even then.
    ///
    /// - Parameter forwarded: Whether an alias forwards the arguments to `key`, its target: the
    ///   chain they pass along was checked at its start, so a transient alias on it is not
    ///   checked again; the binding at its end is (a child's override may have ended it), and so
    ///   is a cached alias, which may resolve in its owner, whose view of the chain can differ
    ///   from the caller's. Checking the rest of the chain at every link made a chain of `n`
    ///   aliases cost `n²`.
    nonisolated func resolve<T: Sendable>(
        _ key: BindingKey,
        as type: T.Type,
        arguments: RuntimeArguments,
        parent: ResolutionFrame?,
        forwarded: Bool = false
    ) async throws -> T {
        guard !isShutDown else { throw InjectionError.shutDown(isScope: isScope, key: key) }
        guard let binding = try binding(for: key, as: type) else {
            throw InjectionError.missingBinding(key, requestedBy: parent)
        }
        // Built only for an error: the path is as long as the chain walked so far.
        let path = { (parent?.keys ?? []) + [key] }
        if !forwarded || !binding.producer.isAlias || binding.lifetime.isCached {
            try checkArguments(arguments, for: binding, path: path)
        }
        guard let applied = binding.producer(as: type)?.applying(arguments) else {
            throw InjectionError.argumentMismatch(key, expected: [], given: arguments.types, path: path())
        }
        return try await ResolutionDriver(self).resolve(binding, producer: applied, below: parent)
    }

    /// Refuses `arguments` unless the binding that builds with them takes them: `binding`
    /// itself, or the target at the end of its chain of aliases, each of which forwards them.
    /// A target that cannot be found is left to the step, which reports it.
    private nonisolated func checkArguments(
        _ arguments: RuntimeArguments,
        for binding: Binding,
        path: () -> [BindingKey]
    ) throws(InjectionError) {
        guard let (builder, chain) = argumentBuilder(of: binding) else { return }
        let path = path() + chain
        guard let signature = builder.producer.arguments, signature.takesArguments else {
            throw .argumentMismatch(builder.key, expected: [], given: arguments.types, path: path)
        }
        guard arguments.match(signature.argumentTypes) else {
            throw .argumentMismatch(builder.key, expected: signature.argumentTypes, given: arguments.types, path: path)
        }
    }

    /// Whether `binding` cannot be built without runtime arguments: the binding that would build
    /// it needs them and has no defaults. Start-up leaves such a singleton for its first call.
    nonisolated func needsArguments(_ binding: Binding) -> Bool {
        argumentBuilder(of: binding)?.builder.producer.arguments?.argumentsRequired == true
    }

    /// The binding that builds `binding`'s values, with runtime arguments or without: `binding`
    /// itself, or the target at the end of its chain of aliases, with the keys of the targets
    /// after `binding`; `nil` when a target is not found or the chain is longer than the depth
    /// limit (the step reports either).
    /// The runtime arguments `binding` takes: its own recipe's, or those of the one its aliases
    /// end at; none when that cannot be found.
    nonisolated func argumentTypes(of binding: Binding) -> [any Any.Type] {
        argumentBuilder(of: binding)?.builder.producer.arguments?.argumentTypes ?? []
    }

    private nonisolated func argumentBuilder(of binding: Binding) -> (builder: Binding, chain: [BindingKey])? {
        var current = binding
        var chain: [BindingKey] = []
        for _ in 0...maxResolutionDepth {
            guard current.producer.isAlias else { return (current, chain) }
            let targetKey = current.dependencies[0]
            guard let target = try? self.binding(for: targetKey, as: targetKey.type) else { return nil }
            current = target
            chain.append(targetKey)
        }
        return nil
    }
}
