/// One built instance to dispose, and how.
///
/// ```swift
/// let disposal = Disposal(key: BindingKey(Pool.self)) { _ in await pool.close() }
/// if let failure = await disposal.run(after: .succeeded, observing: injector.observing) { log(failure) }
/// ```
struct Disposal: Sendable {
    let key: BindingKey
    /// Disposes the instance after work that ended with the given outcome.
    let dispose: @Sendable (ScopeOutcome) async throws -> Void

    /// Disposes the instance after work that ended with `outcome`, telling the observer
    /// (successes only when it `observesSuccesses`); its error, if any. It holds the observer and
    /// not the injector, so that a disposal run in the background keeps no injector alive.
    nonisolated(nonsending) func run(after outcome: ScopeOutcome, observing: ObserverReference?) async -> (any Error)? {
        // The clock is read only for an observer: twice per disposal is measurable per request.
        let start = observing != nil ? ContinuousClock.now : nil
        var failure: (any Error)?
        do {
            try await dispose(outcome)
        } catch {
            failure = error
        }
        if let observing, let start, failure != nil || observing.observesSuccesses {
            observing.observer.disposed(key, duration: .now - start, error: failure)
        }
        return failure
    }
}
