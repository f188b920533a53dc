/// Bindings made on first use for `Injectable` types (`JustInTimeBindings`).
extension InjectorActor {
    /// The root of this injector's hierarchy, which owns just-in-time bindings.
    nonisolated var root: InjectorActor {
        injector(owningTable: table.rootID) ?? self
    }

    /// The binding `get` resolves `key` with: this injector's (or an ancestor's), else the
    /// just-in-time binding of an unnamed ``Injectable`` type; `nil` when neither exists.
    nonisolated func binding<T>(for key: BindingKey, as type: T.Type) throws -> Binding? {
        try table.binding(for: key) ?? justInTimeBinding(for: key, as: type)
    }

    /// The just-in-time binding for an unnamed ``Injectable`` `T`, if `T` is one.
    nonisolated func justInTimeBinding<T>(for key: BindingKey, as type: T.Type) throws -> Binding? {
        guard key.name == nil, let injectable = type as? any Injectable.Type else { return nil }
        return try root.justInTime?.binding(for: injectable)
    }
}
