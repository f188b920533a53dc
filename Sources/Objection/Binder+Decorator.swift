extension Binder {
    /// Wraps the instances of a bound key — with logging, metrics or caching — without rebinding
    /// it. Decorators of one key apply in module order, each to the previous one's result; the
    /// binding keeps its scope, so a decorated singleton is decorated once.
    ///
    /// ```swift
    /// binder.decorate((any PaymentGateway).self) { r, gateway in
    ///     try await MeteredGateway(wrapping: gateway, metrics: r.get(Metrics.self))
    /// }
    /// ```
    ///
    /// Decorating a key that the same injector's modules do not bind is a configuration error.
    ///
    /// - Parameters:
    ///   - type: The bound type to decorate.
    ///   - name: The binding's name, or `nil` for the unnamed binding.
    ///   - fileID: Captured so configuration errors can point at this line.
    ///   - line: Captured so configuration errors can point at this line.
    ///   - decorator: Returns the value to use instead of the one the binding built.
    public func decorate<T: Sendable>(
        _ type: T.Type,
        named name: String? = nil,
        fileID: String = #fileID,
        line: Int = #line,
        with decorator: @escaping @Sendable (Resolver, T) async throws -> T
    ) {
        decorators.append(
            Decorator(
                key: BindingKey(type, named: name),
                location: InjectionError.SourceLocation(fileID: fileID, line: line),
                function: decorator
            ) { decorators, producer in
                let functions = decorators.compactMap { $0.function as? @Sendable (Resolver, T) async throws -> T }
                return (producer as? Recipe<T>)?.decorated(with: functions)
            }
        )
    }
}

/// A decorator declared on a ``Binder``, applied when the injector links its bindings.
struct Decorator {
    let key: BindingKey
    let location: InjectionError.SourceLocation
    /// The decorating function: a `@Sendable (Resolver, T) async throws -> T` of the decorated type.
    let function: any Sendable
    /// The producer wrapped by every decorator of the list, all of this one's key, in their
    /// order; `nil` when its type does not match. One wrapper for them all: a wrapper per
    /// decorator would nest as deep as there are decorators, and release recursively.
    let applyAll: ([Decorator], any AnyRecipe) -> (any AnyRecipe)?
}
