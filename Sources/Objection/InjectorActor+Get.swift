/// The public way in: `get`, `get(_:named:)` and `getIfBound`.
///
/// Declared in an extension, not in the actor's body, so that they are statically dispatched and
/// can be inlined and specialised in the caller's module.
extension InjectorActor {
    /// Resolves the binding for `type`, optionally qualified by `name`.
    ///
    /// ```swift
    /// let repo = try await injector.get(UserRepository.self)
    /// let left = try await injector.get(Headlight.self, named: "left")
    /// ```
    ///
    /// - Parameters:
    ///   - type: The bound type to resolve.
    ///   - name: The binding's name, or `nil` for the unnamed binding.
    /// - Returns: The instance the binding's scope dictates: new for transient bindings, the
    ///   injector's one instance for singletons.
    /// - Throws: ``InjectionError`` for a missing binding, a cycle or a runaway depth; a
    ///   provider's own error, unchanged.
    @inlinable
    nonisolated(nonsending) public func get<T: Sendable>(
        _ type: T.Type = T.self,
        named name: String? = nil
    ) async throws -> T {
        let key = BindingKey(type, named: name)
        if let built = builtSingleton(key) { return CellValue.unwrap(built, as: T.self) }
        do {
            // The step of the provider this task runs, if it calls the injector directly (see
            // `ResolutionFrame.current`).
            return try await ResolutionDriver(self).value(for: key, as: type, below: ResolutionFrame.active)
        } catch {
            reportFailure(of: key, error)
            throw error
        }
    }

    /// Resolves the binding for `type` if one exists.
    ///
    /// ```swift
    /// let sink: MetricsSink? = try await injector.getIfBound(MetricsSink.self)
    /// ```
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
        let key = BindingKey(type, named: name)
        do {
            return try await resolveIfBound(key, as: type, below: ResolutionFrame.active)
        } catch {
            reportFailure(of: key, error)
            throw error
        }
    }
}
