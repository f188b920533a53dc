/// The one construction routine of a scoped instance — how its slot is claimed, and how the
/// construction ends with a value, an error, a cancellation or the end of its scope — followed by
/// both drivers: the build in place, without suspending (`SynchronousResolver.buildInPlace`), and
/// the build that suspends (`InjectorActor.buildCached`). They differ only in how they run the
/// recipe and in how the observer hears of it (a ``ConstructionReports`` on the stack, or
/// `InjectorActor.observingConstruction`); what happens is decided here.
///
/// The policy:
/// - **Claimed after the scope began to end**: refused with ``InjectionError/Code/shutDown``;
///   nothing is built.
/// - **A value, the scope running**: recorded for disposal, stored, handed to every waiter.
/// - **A value, the scope ending meanwhile**: refused (``InjectorActor/record(_:of:)`` disposes
///   it at once); the builder and every waiter get ``InjectionError/Code/shutDown``, and the
///   observer hears the construction fail with it.
/// - **The builder cancelled** (`CancellationError`, or its task cancelled): the construction is
///   given back; its waiters claim again and one of them builds. A cancellation is never handed
///   to a waiter.
/// - **Any other error, an ``InjectionError`` included**: stored nowhere, handed to every waiter
///   unchanged; the next caller builds again.
/// - **A build in place that must suspend** (``SynchronousStop/mustSuspend``): given back, and
///   not reported; the build that suspends, which follows, is.
extension ScopedSlot {
    /// Claims the slot for a build of `binding` in place (see ``CellState/claimInPlace(as:)``); a
    /// claim to build is refused when `scope`, the slot's request scope, has begun to end.
    @inline(__always)
    func claimInPlace(of binding: Binding, in scope: InjectorActor) throws(InjectionError) -> CellState.Claim<Void> {
        let claim = claimInPlace(as: binding.key)
        if case .build = claim, scope.isShutDown { try refuse(nil, of: binding) }
        return claim
    }

    /// Claims the slot for a build of `binding` that suspends (see ``CellState/claim(as:)``); a
    /// claim to build is refused when `scope` has begun to end.
    @inline(__always)
    func claim(of binding: Binding, in scope: InjectorActor) throws(InjectionError) -> CellState.Claim<Construction> {
        let claim = claim(as: binding.key)
        if case .build(let construction) = claim, scope.isShutDown { try refuse(construction, of: binding) }
        return claim
    }

    /// Gives back `construction` (`nil`: a claim in place), claimed after `binding`'s scope began
    /// to end, and refuses it. Checked after claiming: shutdown sets its flag before it looks for
    /// constructions in flight, so it either sees this one and waits for it, or this check sees
    /// the flag.
    private func refuse(_ construction: Construction?, of binding: Binding) throws(InjectionError) {
        giveUp(construction)
        throw .shutDown(isScope: true, key: binding.key)
    }

    /// Ends `construction` (`nil`: a build in place) with `value`: stored and handed to the
    /// waiters, unless `scope` began to end meanwhile, which refuses it: then it throws, and the
    /// caller ends the construction with ``end(_:failing:)``, as for any error.
    @inline(__always)
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

    /// Ends `construction` (`nil`: a build in place) with `error`, thrown by the recipe or by
    /// ``finish(_:of:in:by:)``; a build in place that must suspend gives its construction back
    /// with `nil`.
    @inline(__always)
    func end(_ construction: Construction?, failing error: (any Error)?) {
        guard let error, !(error is CancellationError), !Task.isCancelled else { return giveUp(construction) }
        fail(construction, with: error)
    }
}
