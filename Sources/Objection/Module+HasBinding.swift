/// Asking a module what it binds, without an injector.
extension Module {
    /// Whether this module's ``configure(_:)`` binds `type`, optionally qualified by `name`
    /// (Objection's module-level `hasBindingForClass:`).
    ///
    /// ```swift
    /// let module = AppModule(dsn: "postgres://localhost/app")
    /// if module.hasBinding(for: (any Database).self) { … }
    /// module.hasBinding(for: Headlight.self, named: "left")
    /// ```
    ///
    /// The answer is keyed as an injector's would be: a contribution
    /// (``Binder/contribute(_:named:fileID:line:)``) of `T` binds the collection `[T]`, not `T`;
    /// a decorator binds nothing; a `bind(_:)` left without a target does not count. Only this
    /// module is consulted — not the other modules of an injector, nor the handles (`Factory<T>`,
    /// `Lazy<T>`) an injector provides for every bound type.
    ///
    /// Each call runs `configure(_:)` on a scratch ``Binder``; nothing is built.
    ///
    /// - Parameters:
    ///   - type: The type to look up.
    ///   - name: The binding's name, or `nil` for the unnamed binding.
    /// - Returns: `true` when this module declares a binding for the key.
    public func hasBinding<T>(for type: T.Type, named name: String? = nil) -> Bool {
        let key = BindingKey(type, named: name)
        let binder = Binder()
        configure(binder)
        return binder.declarations.contains { declaration in
            declaration.producer != nil && (declaration.collection?.key ?? declaration.key) == key
        }
    }
}
