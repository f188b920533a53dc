/// Following a binding's aliases to where its values are built and kept.
extension InjectorActor {
    /// Where the chain of aliases from `binding` ends: the first target that holds its value (an
    /// instance, a cache) or is no alias. `nil` when `binding` is no alias, or a target cannot be
    /// found within ``maxResolutionDepth`` steps.
    nonisolated func aliasChainEnd(from binding: Binding) -> Binding? {
        var current = binding
        var steps = 0
        while current.producer.isAlias {
            let key = current.dependencies[0]
            steps += 1
            guard steps <= maxResolutionDepth, let target = try? self.binding(for: key, as: key.type) else {
                return nil
            }
            if target.producer.isInstance || target.lifetime.isCached || !target.producer.isAlias { return target }
            current = target
        }
        return nil
    }

    /// The injector whose cache holds what `key` resolves to here, for a value kept outside that
    /// cache (a ``Lazy`` handle's): the owner of the injector-wide binding that builds it, itself
    /// or at the end of its aliases, a just-in-time one's the root; for a scoped one, the nearest
    /// request scope — this injector's, or the scope a child of it was made in. `nil` when no
    /// such cache holds it (a transient, a custom scope's instance).
    nonisolated func cacheOwner(of key: BindingKey) -> InjectorActor? {
        guard let found = try? binding(for: key, as: key.type) else { return nil }
        let source = found.lifetime.isCached ? found : aliasChainEnd(from: found) ?? found
        if source.lifetime.isPerRequest { return nearestScope }
        return source.lifetime.isInjectorWide ? owner(of: source) : nil
    }
}
