/// Reporting to the ``InjectionObserver``.
extension InjectorActor {
    /// Builds a cached instance of `binding` with `construct`, telling the observer, if there is
    /// one, when it starts and how it ends.
    @usableFromInline
    nonisolated(nonsending) func observingConstruction<T>(
        of binding: Binding,
        _ construct: nonisolated(nonsending) () async throws -> T
    ) async throws -> T {
        guard let observer else { return try await construct() }
        let observesSuccesses = self.observesSuccesses
        if observesSuccesses { observer.constructionStarted(binding.key, scope: binding.scope) }
        let start = ContinuousClock.now
        do {
            let value = try await construct()
            if observesSuccesses {
                observer.constructionFinished(binding.key, scope: binding.scope, duration: .now - start)
            }
            return value
        } catch {
            reportFailedConstruction(of: binding, startedAt: start, error)
            throw error
        }
    }

    /// Attempts a synchronous resolution in `injector`'s table: its value, or `nil` when it must
    /// suspend (``SynchronousStop/mustSuspend``), and the caller takes the asynchronous path.
    /// Then tells the observer, if it wants successes, which cached instances it built (see
    /// ``ConstructionReports``); an observer of failures only hears of them as they happen
    /// (``reportFailedConstruction(of:startedAt:_:)``).
    ///
    /// - Throws: What a construction threw (``SynchronousStop/failed(_:)``), unchanged.
    @inlinable @inline(__always)
    nonisolated func attemptSynchronously<T>(
        in injector: InjectorActor,
        _ resolve: (SynchronousResolver) throws(SynchronousStop) -> T
    ) throws -> T? {
        guard observesSuccesses, let observer else {
            return try SynchronousStop.outcome(of: resolve(SynchronousResolver(injector: injector, reports: nil)))
        }
        let reports = ConstructionReports()
        defer { reports.deliver(to: observer) }
        return try SynchronousStop.outcome(of: resolve(SynchronousResolver(injector: injector, reports: reports)))
    }

    /// When this injector's observer wants failures only, the start of a cached construction on
    /// the synchronous path, for ``reportFailedConstruction(of:startedAt:_:)``; else `nil`: an
    /// observer of successes hears of the construction through its ``ConstructionReports``.
    @inline(__always)
    nonisolated var failureClockStart: ContinuousClock.Instant? {
        isObserved && !observesSuccesses ? .now : nil
    }

    /// Tells the observer, if there is one, that building `binding`, started at `start`, threw
    /// `error`; does nothing when `start` is `nil` (see ``failureClockStart``).
    nonisolated func reportFailedConstruction(
        of binding: Binding,
        startedAt start: ContinuousClock.Instant?,
        _ error: any Error
    ) {
        guard let start, let observer else { return }
        observer.constructionFailed(binding.key, scope: binding.scope, duration: .now - start, error: error)
    }

    /// Tells the observer, if there is one, that a public `get` of `key` threw `error`. Each
    /// `get` calls it from a `catch` of its own: wrapping the call in a closure instead cost the
    /// singleton hit 9 ns (objection-compare, case 2).
    @usableFromInline
    nonisolated func reportFailure(of key: BindingKey, _ error: any Error) {
        observer?.resolutionFailed(key, error: error)
    }
}
