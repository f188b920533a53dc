/// A value the injector provides for every bound type without a binding of its own:
/// ``Factory`` and ``Lazy`` (and the untyped ``ObjectFactory``, provided for every key).
protocol ResolutionHandle: Sendable {
    /// The type the handle resolves.
    static var target: any Any.Type { get }
    static func make(injector: InjectorActor, name: String?) -> Self
}

extension InjectorActor {
    /// The handle `T` stands for, if `T` is a ``ResolutionHandle`` over a key this injector
    /// provides (bound, or a just-in-time ``Injectable`` type).
    @usableFromInline
    nonisolated func handle<T>(_ type: T.Type, named name: String?) -> T? {
        if type == ObjectFactory.self, name == nil { return ObjectFactory(injector: self) as? T }
        guard let handle = type as? any ResolutionHandle.Type,
            table.provides(BindingKey(handle.target, named: name))
        else { return nil }
        return handle.make(injector: self, name: name) as? T
    }
}
