/// The handles every bound type comes with: `Factory`, `Lazy`, `Provider`.
extension InjectorActor {
    /// The handle `key` stands for, if its type is a ``ResolutionHandle`` over a key this
    /// injector provides (bound, or a just-in-time ``Injectable`` type), or the ``ObjectFactory``.
    nonisolated func handle(for key: BindingKey) -> (any Sendable)? {
        if key.type == ObjectFactory.self, key.name == nil { return ObjectFactory(injector: self) }
        guard let handle = key.type as? any ResolutionHandle.Type,
            table.provides(BindingKey(handle.target, named: key.name))
        else { return nil }
        return handle.make(injector: self, name: key.name)
    }
}
