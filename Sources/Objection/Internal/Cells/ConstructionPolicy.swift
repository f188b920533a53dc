/// The one policy every cached construction follows — a singleton's, a scoped instance's and a
/// ``Lazy`` handle's — carried out by one construction (``construct(_:producer:by:at:observed:as:)``, below; the
/// scoped build in place takes its steps without suspending, and tells the observer when its step
/// returns), with the claims of
/// ScopedSlot+Construction.swift and this file's ending, and tested row by row for every kind in
/// `ConstructionPolicyTests`:
///
/// | What happens                                 | What every kind does                                    |
/// |----------------------------------------------|---------------------------------------------------------|
/// | the provider returns a value                 | stored, handed to every waiter                          |
/// | the provider throws (not a cancellation)     | handed to every waiter unchanged, stored nowhere        |
/// | the provider is cancelled                    | the building task's: see below                          |
/// | a claim once shutdown set the flag (**)      | refused with `shutDown`, the waiters too                |
/// | a value arriving while shutdown drains       | handed out, disposed with the rest                      |
/// | a value arriving after the disposals began   | refused with `shutDown`, the waiters too; disposed (*)  |
/// | a built value read once the flag is set (**) | `shutDown`                                              |
/// | what the observer hears                      | the start, then success, or failure with the error      |
/// |                                              | (a refused value's is `shutDown`); built suspending,    |
/// |                                              | before any waiter gets the value (built in place, when  |
/// |                                              | the step returns); a handle's construction is not heard |
///
/// Shutdown refuses what begins after it and waits for what it finds in flight: a construction
/// it waits for finishes as it would have, and its value is disposed with the rest. Only a value
/// that arrives after shutdown took the disposals (one it did not wait for: given up at a startup
/// deadline when the creation failed, still running past the shutdown's own deadline, or built by
/// a task the end of a cancelled scope left behind) is refused, and disposed at once
/// (*) when the injector disposes that kind of value (not a custom scope's, nor a transient's).
/// (**) a shutdown sets the injector's flag once the open request scopes have ended (at once when
/// none is open); `drain(within:)` never does. The declared dependencies of a construction still
/// running resolve without the check, so that it finishes.
///
/// A cancellation belongs to the task that builds. A scoped instance is built by a task of its
/// request: when that task is cancelled (or its provider throws `CancellationError`), that caller
/// leaves with it, the construction is given back, and a waiter of the request builds instead. A
/// singleton's or a `Lazy`'s construction runs in a task of its own, which no caller cancels: a
/// `CancellationError` its provider throws is the provider's own failure, and reaches every
/// waiter like any other error, once (a start-up that ends early — its deadline, a provider's
/// error, its caller's cancellation — and cancels that task fails the construction first, with
/// its own error).
///
/// What differs between kinds is only where the construction runs: a singleton's and a `Lazy`'s
/// in a detached task (``CacheCell/startDetached(_:build:)``), which belongs to no
/// caller, so neither a caller's cancellation nor its task-local values reach it; a scoped
/// instance's in the task of the request that first needs it (in place or suspending), because the
/// instance belongs to that request. A custom scope's cache shares no construction: each caller
/// that misses it builds, and the rows about waiters do not apply.
extension CellAccess {
    /// Builds `binding`'s value for `construction`, claimed in this cell, and ends the construction
    /// by the one policy (this file's table, above):
    ///
    /// 1. `producer` runs at `frame`, in `builder` (the injector whose cache it fills), observed
    ///    as `observation`;
    /// 2. the value is kept (``InjectorActor/kept(_:of:)``: recorded for disposal), or refused with `shutDown`
    ///    when the disposals were taken meanwhile;
    /// 3. the observer hears how the construction ended: a refused value is a failed
    ///    construction;
    /// 4. a kept value is stored in the cell and handed to every waiter; an error ends the
    ///    construction as ``CellAccess/end(_:failing:)`` says.
    ///
    /// The observer hears before the waiters get the value, so a caller that waited has it heard.
    /// A refused value's disposal, started by ``InjectorActor/kept(_:of:)`` in the background, may be heard
    /// before the failure.
    nonisolated(nonsending) func construct<T: Sendable>(
        _ binding: Binding,
        producer: Recipe<T>,
        by builder: InjectorActor,
        at frame: ResolutionFrame,
        observed observation: ConstructionObservation?,
        as construction: Construction
    ) async throws -> T {
        let value: T
        do {
            // The builder's observer is its caller's: one reference serves a whole hierarchy.
            value = try await builder.observing(observation, at: frame) { frame in
                try builder.kept(try await producer.run(in: builder, frame: frame, for: binding), of: binding)
            }
        } catch {
            end(construction, failing: error)
            throw error
        }
        complete(value, of: construction)
        return value
    }

    /// Ends `construction` (`nil`: the caller's build in place) that produced no value: thrown
    /// `error`, or `nil` for a build in place that must suspend.
    ///
    /// A cancellation belongs to the task that builds. Where that is a caller's own task
    /// (``isBuiltByCallers``: a scoped instance's), a cancellation — `CancellationError`, or any
    /// error thrown once the building task was cancelled — is that caller's alone: the
    /// construction is given back and the waiters claim again, so that a waiter that was not
    /// cancelled never sees one. Any other error, and every error of a construction that runs on a
    /// task of its own (a singleton's, a handle's), reaches every waiter, and nothing is stored:
    /// the next caller builds again.
    func end(_ construction: Construction?, failing error: (any Error)?) {
        guard let error else { return giveUp(construction) }
        if isBuiltByCallers, error is CancellationError || Task.isCancelled { return giveUp(construction) }
        fail(construction, with: error)
    }
}

extension CacheCell {
    /// Runs `build`, the construction of `construction` claimed in this cell, in a detached task.
    /// `build` ends the construction itself (``CellAccess/construct(_:producer:by:at:observed:as:)``).
    ///
    /// Detached: the construction belongs to no caller, so no caller's cancellation or task-local
    /// values (a request's context) reach it. Callers wait on the cell, so a cancelled caller can
    /// leave while it carries on.
    func startDetached(_ construction: Construction, build: @escaping @Sendable () async -> Void) {
        construction.attach(
            Task.detached(priority: Task.currentPriority) {
                await build()
                construction.endRun()
            })
    }
}
