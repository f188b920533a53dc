/// Subscript access and introspection.
extension InjectorActor {
    /// Resolves `type`, like ``get(_:named:)``.
    ///
    /// ```swift
    /// let service = try await injector[Service.self]
    /// let left = try await injector[Headlight.self, named: "left"]
    /// ```
    ///
    /// - Parameters:
    ///   - type: The bound type to resolve.
    ///   - name: The binding's name, or `nil` for the unnamed binding.
    public nonisolated subscript<T: Sendable>(_ type: T.Type, named name: String? = nil) -> T {
        get async throws { try await get(type, named: name) }
    }

    /// Whether `get(type, named: name)` would find a binding: this injector's, an ancestor's, or
    /// a handle the injector provides for every bound type (`Factory<T>`, `Lazy<T>`).
    ///
    /// ```swift
    /// if injector.hasBinding(for: (any PaymentGateway).self) { … }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to look up.
    ///   - name: The binding's name, or `nil` for the unnamed binding.
    /// - Returns: `true` when the key resolves to a binding.
    public nonisolated func hasBinding<T>(for type: T.Type, named name: String? = nil) -> Bool {
        table.provides(BindingKey(type, named: name))
    }

    /// Whether a request scope of this injector may bind a value for the key (``ScopeValues``):
    /// the injector does not bind it, or binds it with ``BindingBuilder/suppliedByScope()``.
    /// A value for any other key makes ``withScope(values:_:)`` and ``openScope(values:)`` throw.
    ///
    /// ```swift
    /// let bindsLogger = injector.acceptsScopeValue(for: Logger.self)
    /// try await injector.withScope(values: { if bindsLogger { $0.bind(Logger.self, to: logger) } }) { scope in … }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The value's type.
    ///   - name: The binding's name, or `nil` for the unnamed binding.
    /// - Returns: `true` when a request scope's value may be bound for the key.
    public nonisolated func acceptsScopeValue<T>(for type: T.Type, named name: String? = nil) -> Bool {
        acceptsScopeValue(for: BindingKey(type, named: name))
    }

    /// Whether a request scope of this injector may bind a value for `key`.
    nonisolated func acceptsScopeValue(for key: BindingKey) -> Bool {
        table.binding(for: key)?.isSuppliedByScope ?? true
    }

    /// How many callers have joined the in-flight construction of `key` in this injector, its
    /// starter included (0 when none is in flight). Lets tests wait for a stampede to form
    /// without sleeping.
    func callersWaiting(for key: BindingKey) -> Int {
        (try? binding(for: key, as: key.type))??.lifetime.cell?.construction?.joins ?? 0
    }
}
