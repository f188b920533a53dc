/// The one construction routine of a scoped instance — how its slot is claimed, and how the
/// construction ends with a value, an error, a cancellation or the end of its scope — followed by
/// both drivers: the build in place, without suspending (`SynchronousResolver.buildInPlace`), and
/// the build that suspends (`InjectorActor.build(_:producer:as:)`). They differ only in how they run the
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
@usableFromInline
struct ScopedConstruction: Sendable {
    let slot: ScopedSlot
    /// The request scope that owns the slot, and records the value for disposal.
    let scope: InjectorActor
    let binding: Binding
    /// The construction claimed by a build that suspends, which ends only that construction;
    /// `nil` for a build in place, which nobody else ends.
    var construction: Construction? = nil

    /// Claims the slot for a build in place (see ``CellState/claimInPlace(as:)``); a claim to
    /// build is refused when the scope has begun to end.
    func claimInPlace() throws(InjectionError) -> CellState.Claim<Void> {
        try refusedAfterShutdown(slot.claimInPlace(as: binding.key))
    }

    /// Claims the slot for a build that suspends (see ``CellState/claim(as:)``); a claim to build
    /// is refused when the scope has begun to end.
    func claim() throws(InjectionError) -> CellState.Claim<Construction> {
        try refusedAfterShutdown(slot.claim(as: binding.key))
    }

    /// `claim`, unless it is a claim to build and the scope has begun to end. Checked after
    /// claiming: shutdown sets its flag before it looks for constructions in flight, so it either
    /// sees this one and waits for it, or this check sees the flag.
    private func refusedAfterShutdown<Build>(
        _ claim: CellState.Claim<Build>
    ) throws(InjectionError) -> CellState.Claim<Build> {
        if case .build = claim, scope.isShutDown {
            slot.abandon()
            throw .shutDown(isScope: true, key: binding.key)
        }
        return claim
    }

    /// Ends the construction with `value`: stored and handed to the waiters, unless the scope
    /// began to end meanwhile, which refuses it: then it throws, and the caller ends the
    /// construction with ``fail(_:)``, as for any error.
    func finish<T: Sendable>(_ value: T) throws(InjectionError) -> T {
        guard scope.record(value, of: binding) else { throw .shutDown(isScope: true, key: binding.key) }
        slot.complete(value, of: construction)
        return value
    }

    /// Ends the construction with `error`, thrown by the recipe or by ``finish(_:)``.
    func fail(_ error: any Error) {
        if error is CancellationError || Task.isCancelled {
            slot.giveUp(construction)
        } else {
            slot.fail(construction, with: error)
        }
    }

    /// Gives the construction back without an outcome: a build in place that must suspend.
    func giveWay() {
        slot.giveUp(construction)
    }
}
