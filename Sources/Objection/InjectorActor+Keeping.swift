/// What an injector keeps of the values it builds for its caches: how to dispose each, until
/// shutdown takes the disposals (the construction that builds them is
/// ``CellAccess/construct(_:producer:by:at:observed:as:)``, ConstructionPolicy.swift).
extension InjectorActor {
    /// `value`, just built for `binding`'s cache in this injector, if it may be handed out: it is
    /// recorded for disposal (``record(_:of:)``), unless the disposals were taken, and then
    /// disposed at once and refused with `shutDown`. Recorded whether or not the cell still
    /// wants it: a construction given up at a startup deadline may finish after all, even after
    /// shutdown, which did not wait for it. A handle's value is not recorded: its disposal is
    /// that of the binding it read. The one decision both builds take, suspending and in place.
    nonisolated func kept<T: Sendable>(_ value: T, of binding: Binding) throws(InjectionError) -> T {
        guard binding.lifetime.isHandle ? keepsValues : record(value, of: binding) else {
            throw .shutDown(isScope: isScope, key: binding.key)
        }
        return value
    }

    /// Whether a value built now may still be handed out: until shutdown takes the disposals.
    /// Shutdown waits for the constructions in flight before it does, so a value they build while
    /// it drains reaches whoever asked and is disposed with the rest (ConstructionPolicy.swift).
    nonisolated var keepsValues: Bool {
        !isShutDown || !shutdownState.withLock(\.isClosed)
    }

    /// Records how to dispose `value`, which this injector built for `binding`, and returns
    /// whether it may be handed out (``keepsValues``). Once shutdown has taken the disposals,
    /// nothing more is recorded: the value is disposed right away, in the background, and the
    /// caller gets `false`.
    nonisolated func record<T: Sendable>(_ value: T, of binding: Binding) -> Bool {
        if let generations = binding.lifetime.generations {
            return recordFirstGeneration(value, of: binding, in: generations)
        }
        guard let disposal = disposal(of: value, builtFor: binding) else { return keepsValues }
        if shutdownState.withLock({ $0.record(disposal) }) { return true }
        // Its failure has no caller to reach; the observer hears of it. The task holds the
        // observer, not this injector (a scope's values may be a resource lent back by now).
        let observing = observing
        Task.detached { _ = await disposal.run(after: .succeeded, observing: observing) }
        return false
    }

    /// How to dispose `value`, which this injector built for `binding`: the binding's hook, or
    /// `dispose()` when the value is its own to dispose here (``ownsValues(of:)``); `nil` when
    /// there is nothing to do.
    nonisolated func disposal(of value: any Sendable, builtFor binding: Binding) -> Disposal? {
        binding.disposal(of: value, ownedHere: { ownsValues(of: binding) })
            .map { Disposal(key: binding.key, dispose: $0) }
    }

    /// Whether the values `binding` produces here are its own to dispose. They are unless it is
    /// an alias whose chain ends in a cache (the target's cache built the instance and disposes
    /// it) or in an instance the caller owns; an alias to a transient target is the only cache of
    /// what it holds, so it disposes it.
    nonisolated func ownsValues(of binding: Binding) -> Bool {
        guard let end = aliasChainEnd(from: binding) else { return true }
        return !end.producer.isInstance && !end.lifetime.isCached
    }
}
