/// Keys that only request scopes bind.
extension BindingBuilder {
    /// Declares that request scopes supply this key: the request's own values, such as its id or
    /// the authenticated user, bound by the modules passed to
    /// ``InjectorActor/withScope(modules:_:)``.
    ///
    /// The declaration lets the injector check its graph when it is built: bindings that depend
    /// on the key are not reported as missing, and a singleton that depends on it is reported as
    /// a captive dependency (``InjectionError/Code/scopeViolation``). Resolving the key where no
    /// request scope is open throws ``InjectionError/Code/scopeViolation``; resolving it in a
    /// scope whose modules do not bind it throws ``InjectionError/Code/missingBinding``, and
    /// `getIfBound` returns `nil` there (an optional value, such as an anonymous request's user).
    ///
    /// ```swift
    /// struct AppModule: Module {
    ///     func configure(_ binder: Binder) {
    ///         binder.bind(RequestID.self).suppliedByScope()
    ///         binder.bind(AuditTrail.self).to(AuditTrail.init)   // init(requestID: RequestID)
    ///     }
    /// }
    ///
    /// struct RequestModule: Module {
    ///     let id: RequestID
    ///     func configure(_ binder: Binder) { binder.bind(RequestID.self).toInstance(id) }
    /// }
    ///
    /// try await injector.withScope(modules: [RequestModule(id: id)]) { request in
    ///     try await request.get(AuditTrail.self).record("checkout")
    /// }
    /// ```
    public func suppliedByScope() {
        let key = binder.declarations[index].key
        setTarget(
            Recipe.suppliedByScope { resolver in
                throw InjectionError.notSuppliedByScope(key, path: resolver.keys)
            }
        )
        binder.declarations[index].scope = .scoped
        binder.declarations[index].isSuppliedByScope = true
        binder.declarations[index].propertyDependencies = []  // The stand-in builds nothing.
    }
}
