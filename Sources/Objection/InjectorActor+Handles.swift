/// The handles every bound type comes with: `Factory`, `Lazy`, `Provider`.
extension InjectorActor {
    /// The handle `T` stands for, if `T` is a ``ResolutionHandle`` over a key this injector
    /// provides (bound, or a just-in-time ``Injectable`` type).
    nonisolated func handle<T>(_ type: T.Type, named name: String?) -> T? {
        if type == ObjectFactory.self, name == nil { return ObjectFactory(injector: self) as? T }
        guard let handle = type as? any ResolutionHandle.Type,
            table.provides(BindingKey(handle.target, named: name))
        else { return nil }
        return handle.make(injector: self, name: name) as? T
    }
}
