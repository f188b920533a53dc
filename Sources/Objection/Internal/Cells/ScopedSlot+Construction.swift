/// How a scoped instance's slot is claimed, the scoped part of the one construction policy
/// (ConstructionPolicy.swift). The construction it claims then runs as every cache's does: by
/// `CellAccess.construct` when it suspends (ConstructionPolicy.swift), or by the same
/// steps without suspending (`SynchronousResolver.buildInPlace`), which differ only in running
/// the recipe in place and in noting for the observer in a ``ConstructionReports`` on the stack.
/// A build in place that must suspend (``SynchronousStop/mustSuspend``) is given back and not
/// reported; the build that suspends, which follows, is.
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
}
