/// Ordered asynchronous shutdown: the public calls; one call's sequence is ``ShutdownRun``.
extension InjectorActor {
    /// Drains this injector, then disposes everything it built and cached, in reverse order of
    /// construction, each exactly once, and releases its caches.
    ///
    /// **The drain.** From the first moment, a request scope opened on this injector (or on what
    /// derives from it) is refused with ``InjectionError/Code/shutDown`` — but one opened inside a
    /// request already in flight, which is part of it. Shutdown then waits for the request scopes
    /// still open to end, then for the constructions still in flight; meanwhile `get` keeps
    /// working, so a request in flight finishes with its singletons intact. It waits at most
    /// `timeout`: past it, it stops waiting, disposes what was built, and reports what was still
    /// open or being built, by name, in the ``InjectionError/Code/timedOut`` error it returns and
    /// to the observer (``InjectionObserver/drained(duration:error:)``). It never waits for the
    /// request scopes the caller runs inside (a handler that shuts the injector down), nor for
    /// constructions the caller runs inside (a provider that shuts its own injector down), which
    /// wait for this call: what they build is disposed when they finish.
    ///
    /// **The disposals.** Singletons are disposed by the injector that declares them; a request
    /// scope disposes its scoped instances when it ends. Values bound with `toInstance` are not
    /// disposed. One failing disposal does not stop the others.
    ///
    /// Called from a cancelled task (a service group cancelling its services), it does not wait:
    /// it returns, and the drain and the disposals, with the same deadline and in the same order,
    /// run in the background. Afterwards `get`, `child(modules:startup:)` and
    /// `withScope(modules:_:)` throw ``InjectionError/Code/shutDown``. Calling it again waits for
    /// the first call and does nothing more; from a disposal of this injector, from inside a
    /// construction or from inside a request scope, which the first call may be waiting for, it
    /// returns at once.
    ///
    /// ```swift
    /// if let failure = await injector.shutdown(within: .seconds(20)) {
    ///     logger.error("\(failure)")
    /// }
    /// ```
    ///
    /// - Parameter timeout: How long the drain may wait for request scopes and constructions;
    ///   ``defaultDrainDeadline`` (10 seconds) unless you say, `nil` for no deadline.
    /// - Returns: `nil` when the drain finished and every disposal succeeded. When the deadline
    ///   passed, a ``InjectionError/Code/timedOut`` error with one problem for the request scopes
    ///   still open and one per construction still in flight (with the chain it waits on), and
    ///   the failed disposals after them. Otherwise, when disposals failed, a
    ///   ``InjectionError/Code/disposalFailed`` error with one problem per failure, each carrying
    ///   the disposal's error as ``InjectionError/underlying``.
    @discardableResult
    public nonisolated(nonsending) func shutdown(
        within timeout: Duration? = InjectorActor.defaultDrainDeadline
    ) async -> InjectionError? {
        await ShutdownRun(of: self, after: .succeeded).run(within: timeout)
    }

    /// Drains without disposing: the first part of ``shutdown(within:)``, for a host that must
    /// stop something between the drain and the disposals (the services a database client runs
    /// on, which the requests still in flight need).
    ///
    /// From its first moment it refuses new request scopes, as shutdown does, and the injector
    /// reports ``InjectorPhase/shuttingDown``; it waits for the request scopes still open (not
    /// those the caller runs inside) up to `timeout`, and returns. The injector still resolves:
    /// call ``shutdown(within:)`` next. When every scope ended, its own drain finds nothing more
    /// to wait for but constructions in flight; after a drain cut at its deadline, it waits for
    /// the scopes still open again, up to its own deadline. A cancelled caller stops waiting.
    ///
    /// ```swift
    /// await server.stop()
    /// if let cut = await injector.drain(within: .seconds(10)) { logger.warning("\(cut)") }
    /// await databaseClient.stop()
    /// await injector.shutdown()
    /// ```
    ///
    /// - Parameter timeout: How long to wait; ``defaultDrainDeadline`` unless you say, `nil` for
    ///   no deadline.
    /// - Returns: `nil` when every scope ended; at the deadline, a ``InjectionError/Code/timedOut``
    ///   error saying how many were still open and naming the constructions in flight.
    @discardableResult
    public nonisolated(nonsending) func drain(
        within timeout: Duration? = InjectorActor.defaultDrainDeadline
    ) async -> InjectionError? {
        guard !isScope else { return nil }
        return await Drain.begin(on: self, within: timeout).waitForScopes().failure
    }

    /// How long ``shutdown(within:)`` waits, unless told, for the request scopes still open and
    /// the constructions in flight: 10 seconds, the time Vapor's own server gives its connections
    /// to close, so that both fit in Kubernetes' default 30-second grace period.
    ///
    /// ```swift
    /// await injector.shutdown(within: InjectorActor.defaultDrainDeadline * 2)
    /// ```
    public static let defaultDrainDeadline = Duration.seconds(10)

    /// The request scopes counted in ``openScopes`` that the calling task runs inside: those a
    /// drain must not wait for.
    nonisolated var callerScopeIDs: Set<ObjectIdentifier> { Self.callerScopes(countedIn: self) }

    /// The open request scopes counted in `tracker` that the calling task runs inside, by
    /// identity: a task-local read, and a walk only inside a scope.
    static func callerScopes(countedIn tracker: InjectorActor) -> Set<ObjectIdentifier> {
        var scopes: Set<ObjectIdentifier> = []
        var scope = taskCurrent?.nearestScope
        while let current = scope {
            if !current.isShutDown && current.countsScopes(in: tracker) { scopes.insert(ObjectIdentifier(current)) }
            scope = current.openedWithin
        }
        return scopes
    }

    /// Whether the calling task runs inside a construction that any caller may wait for: a
    /// singleton's, in a task of its own, or a refreshable binding's rebuild. A shutdown called
    /// from there waits for neither the request scopes nor the constructions in flight, since
    /// any of them may be waiting for that very construction; it disposes what is built, and a
    /// value that arrives later is refused and disposed as it arrives. Only a provider still
    /// running counts (``ResolutionFrame/active``): a task it started that outlives it is an
    /// ordinary caller.
    static var callerRunsInSharedConstruction: Bool { ResolutionFrame.active?.enclosingSingleton != nil }

    /// The outcomes of the constructions in flight, but those the calling task runs inside. The
    /// task's frame is read only when something is in flight: most shutdowns have nothing to
    /// wait for, and a request scope that disposes something ends through here.
    nonisolated var outcomesInFlightExceptTheCaller: [SharedOutcome<CellState.Value?>] {
        let inFlight = outcomesInFlight(excluding: [])
        guard !inFlight.isEmpty, !Self.callerRunsInSharedConstruction else { return [] }
        guard let caller = ResolutionFrame.current?.enclosingConstructions, !caller.isEmpty else { return inFlight }
        return outcomesInFlight(excluding: caller)
    }

    /// The constructions a start gave up whose tasks still run, but those the calling task runs
    /// inside: what a drain waits for after the constructions it found in flight, since a start
    /// may give one up while the drain waits (its cell's outcome then ends at once).
    nonisolated var abandonedWorkExceptTheCaller: [Construction] {
        guard !Self.callerRunsInSharedConstruction else { return [] }
        return shutdownState.abandonedWorkInFlight(excluding: ResolutionFrame.current?.enclosingConstructions ?? [])
    }

    /// Ends this request scope: at once when it can (``shutDownAtOnce()``), else through
    /// a ``ShutdownRun`` with no deadline (a scope waits for no other scope, its nested ones end
    /// inside its body, but it waits for its constructions in flight), whose disposal failure it
    /// returns.
    nonisolated(nonsending) func end(after outcome: ScopeOutcome) async -> InjectionError? {
        guard let pins = shutDownAtOnce() else { return await ShutdownRun(of: self, after: outcome).run(within: nil) }
        if !pins.isEmpty { await release(pins, after: outcome) }
        return nil
    }

    /// Ends this request scope without suspending when it has nothing to wait for or dispose: no
    /// construction in flight and nothing recorded for disposal, as most request scopes end.
    /// `nil`, changing nothing but the flag, when a ``ShutdownRun`` must do it; else the
    /// generations of refreshable bindings the scope pinned, to release.
    nonisolated func shutDownAtOnce() -> [Generation]? {
        guard !ownsTable, let request else { return nil }
        // Set first, as ShutdownRun does: a construction claimed after this sees the flag
        // and gives up, so none can start once the cells are found idle.
        shutdownFlag.set()
        guard request.endAtOnce() else { return nil }
        return request.releaseCells()
    }

    /// The cells of the singletons this injector builds: those it declares (when it owns its
    /// table) and its just-in-time ones.
    nonisolated var singletonCells: [CacheCell] {
        ((ownsTable ? table.declaredBindings : []) + (justInTime?.all ?? [])).compactMap(\.lifetime.cell)
    }

    /// The outcomes of the constructions of this injector's caches that are in flight — its
    /// singletons' and, for a request scope, its scoped instances' — but those of `excluded`.
    /// Taken once, so that a construction that ends and a new one that starts meanwhile is not
    /// waited for.
    nonisolated func outcomesInFlight(excluding excluded: [Construction]) -> [SharedOutcome<CellState.Value?>] {
        var outcomes = request?.outcomesInFlight(excluding: excluded) ?? []
        // A request scope opened without modules builds no singletons: no array to make.
        if ownsTable || justInTime != nil {
            outcomes += singletonCells.compactMap { $0.outcomeInFlight(excluding: excluded) }
            // Constructions a start gave up whose providers still run (StartupRun).
            outcomes += shutdownState.abandonedWorkInFlight(excluding: excluded).compactMap { $0.endOfRun() }
        }
        // A refresh's rebuild may be using this injector's singletons, even one whose caller has
        // stopped waiting for it: disposed after it.
        if ownsTable, table.resolvesRefreshable {
            for binding in table.declaredBindings where binding.lifetime.changesOnRefresh {
                outcomes += binding.lifetime.generations?.rebuildsInFlight ?? []
            }
        }
        // The root's refreshable `Injectable` types, bound just in time, are refreshed too.
        for binding in justInTime?.all ?? [] where binding.lifetime.changesOnRefresh {
            outcomes += binding.lifetime.generations?.rebuildsInFlight ?? []
        }
        return outcomes
    }
}
