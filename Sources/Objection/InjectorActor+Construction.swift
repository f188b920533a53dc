/// The one construction that suspends, of every cell that shares its construction with waiters:
/// a scoped instance's, built in the task of its request, and a singleton's or a ``Lazy``
/// handle's, built in a detached task (ConstructionPolicy.swift says why each runs where it
/// does). The build in place, which does not suspend, follows the same steps in
/// ``SynchronousResolver/buildInPlace(_:producer:in:)``, except that its notes for the observer
/// are delivered when its step returns, after the slot was completed.
extension InjectorActor {
    /// Builds `binding`'s value for `construction`, claimed in `cell`, and ends the construction
    /// by the one policy (ConstructionPolicy.swift):
    ///
    /// 1. `producer` runs at `frame`, in `builder` (the injector whose cache it fills), observed
    ///    as `observation`;
    /// 2. the value is kept (``kept(_:of:)``: recorded for disposal), or refused with `shutDown`
    ///    when the disposals were taken meanwhile;
    /// 3. the observer hears how the construction ended: a refused value is a failed
    ///    construction;
    /// 4. a kept value is stored in the cell and handed to every waiter; an error ends the
    ///    construction as ``CellAccess/end(_:failing:)`` says.
    ///
    /// The observer hears before the waiters get the value, so a caller that waited has it heard.
    /// A refused value's disposal, started by ``kept(_:of:)`` in the background, may be heard
    /// before the failure.
    nonisolated(nonsending) func construct<T: Sendable>(
        _ binding: Binding,
        producer: Recipe<T>,
        by builder: InjectorActor,
        at frame: ResolutionFrame,
        observed observation: ConstructionObservation?,
        in cell: some CellAccess,
        as construction: Construction
    ) async throws -> T {
        let value: T
        do {
            value = try await observing(observation, at: frame) { frame in
                try builder.kept(try await producer.run(in: builder, frame: frame, for: binding), of: binding)
            }
        } catch {
            cell.end(construction, failing: error)
            throw error
        }
        cell.complete(value, of: construction)
        return value
    }

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
}
