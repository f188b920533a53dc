/// How a scoped instance's slot is claimed and how its construction ends with a value — the
/// scoped part of the one construction policy (ConstructionPolicy.swift) — followed by both
/// drivers: the build in place, without suspending (`SynchronousResolver.buildInPlace`), and the
/// build that suspends (`InjectorActor.buildCached`). They differ only in how they run the recipe
/// and in how the observer hears of it (a ``ConstructionReports`` on the stack, or
/// `InjectorActor.observingConstruction`); a construction that produced no value ends by
/// ``CellAccess/end(_:failing:)``, as every kind's does. A build in place that must suspend
/// (``SynchronousStop/mustSuspend``) is given back and not reported; the build that suspends,
/// which follows, is.
extension ScopedSlot {
    /// Claims the slot for a build of `binding` in place (see ``CellState/claimInPlace(as:)``); a
    /// claim to build is refused when `scope`, the slot's request scope, has begun to end.
    func claimInPlace(of binding: Binding, in scope: InjectorActor) throws(InjectionError) -> CellState.Claim<Void> {
        let claim = claimInPlace(as: binding.key)
        if case .build = claim, scope.isShutDown { try refuse(nil, of: binding) }
        return claim
    }

    /// Claims the slot for a build of `binding` that suspends (see ``CellState/claim(as:)``); a
    /// claim to build is refused when `scope` has begun to end.
    func claim(of binding: Binding, in scope: InjectorActor) throws(InjectionError) -> CellState.Claim<Construction> {
        let claim = claim(as: binding.key)
        if case .build(let construction) = claim, scope.isShutDown { try refuse(construction, of: binding) }
        return claim
    }

    /// Refuses `construction` (`nil`: a claim in place), claimed after `binding`'s scope began to
    /// end: its waiters get the same error. Checked after claiming: shutdown sets its flag before
    /// it looks for constructions in flight, so it either sees this one and waits for it, or this
    /// check sees the flag.
    private func refuse(_ construction: Construction?, of binding: Binding) throws(InjectionError) {
        let refusal = InjectionError.shutDown(isScope: true, key: binding.key)
        fail(construction, with: refusal)
        throw refusal
    }

    /// Ends `construction` (`nil`: a build in place) with `value`: stored and handed to the
    /// waiters, unless `scope` has taken its disposals meanwhile (``InjectorActor/record(_:of:)``),
    /// which refuses it: then it throws, and the caller ends the construction with
    /// ``CellAccess/end(_:failing:)``, as for any error.
    func finish<T: Sendable>(
        _ value: T,
        of binding: Binding,
        in scope: InjectorActor,
        by construction: Construction?
    ) throws(InjectionError) -> T {
        guard scope.record(value, of: binding) else { throw .shutDown(isScope: true, key: binding.key) }
        complete(value, of: construction)
        return value
    }
}
