/// A value the injector provides for every bound type without a binding of its own:
/// ``Factory`` and ``Lazy``.
protocol ResolutionHandle: Sendable {
    /// The type the handle resolves.
    static var target: any Any.Type { get }
    static func make(injector: InjectorActor, name: String?) -> Self
}

extension InjectorActor {
    /// The handle `T` stands for, if `T` is a ``ResolutionHandle`` over a bound key.
    @usableFromInline
    nonisolated func handle<T>(_ type: T.Type, named name: String?) -> T? {
        guard let handle = type as? any ResolutionHandle.Type,
            table.binding(for: BindingKey(handle.target, named: name)) != nil
        else { return nil }
        return handle.make(injector: self, name: name) as? T
    }
}
