/// Refreshable bindings: reading the generation a request uses, and replacing it while the
/// injector runs (the article "Refreshing without a restart").
extension InjectorActor {
    /// Rebuilds every refreshable binding this injector resolves (its own and its ancestors')
    /// that was built, and swaps each new instance in.
    ///
    /// Each new instance is built **before** it replaces the old one, by the injector that
    /// declares the binding, outside any request. Request scopes that read the binding after the
    /// swap get the new instance; a scope that read it before keeps the old one for its whole
    /// life, and the old instance is disposed (with the outcome of that scope) after the last such
    /// scope ends — or at once when none uses it. A binding never built is left alone: its first
    /// `get` builds it from the settings of then.
    ///
    /// A rebuild that throws or passes `deadline` (cancelled, ``InjectionError/Code/timedOut``)
    /// keeps the old instance serving, is reported to the observer, and marks
    /// ``health(within:cachedFor:)`` degraded with the binding named until a later refresh of it
    /// succeeds. Concurrent refreshes of one binding share one rebuild at a time: one asked while
    /// another runs is answered by the next rebuild, which starts after it, so the last one wins.
    ///
    /// ```swift
    /// // on SIGHUP, or when the configuration file changed:
    /// let rebuilt = try await injector.refresh()
    /// logger.info("refreshed \(rebuilt.count) bindings")
    /// ```
    ///
    /// - Parameter deadline: How long each rebuild may take.
    /// - Returns: The keys whose instance was replaced.
    /// - Throws: ``InjectionError/Code/refreshFailed`` naming each binding whose rebuild failed
    ///   (the others were replaced); ``InjectionError/Code/shutDown`` once shutdown began.
    @discardableResult
    public nonisolated func refresh(within deadline: Duration = .seconds(30)) async throws -> [BindingKey] {
        try await refresh(refreshableBindings, within: deadline)
    }

    /// Rebuilds the refreshable binding for `type`, as ``refresh(within:)`` does for all of them.
    ///
    /// ```swift
    /// try await injector.refresh(RateLimiter.self)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The bound type.
    ///   - name: The binding's name, or `nil` for the unnamed binding.
    ///   - deadline: How long the rebuild may take.
    /// - Returns: Whether the instance was replaced: `false` when it was never built.
    /// - Throws: ``InjectionError/Code/missingBinding`` for an unbound key,
    ///   ``InjectionError/Code/scopeViolation`` for a binding that is not refreshable, otherwise as
    ///   ``refresh(within:)``.
    @discardableResult
    public nonisolated func refresh<T: Sendable>(
        _ type: T.Type,
        named name: String? = nil,
        within deadline: Duration = .seconds(30)
    ) async throws -> Bool {
        try await !refresh(keys: [BindingKey(type, named: name)], within: deadline).isEmpty
    }

    /// Rebuilds the refreshable bindings of `keys`, as ``refresh(within:)`` does for all of them:
    /// what a configuration watcher calls with the bindings that read a changed setting.
    ///
    /// ```swift
    /// try await injector.refresh(keys: [BindingKey(RateLimiter.self), BindingKey(FeatureFlags.self)])
    /// ```
    ///
    /// - Parameters:
    ///   - keys: The bindings to rebuild.
    ///   - deadline: How long each rebuild may take.
    /// - Returns: The keys whose instance was replaced.
    /// - Throws: As ``refresh(_:named:within:)``.
    @discardableResult
    public nonisolated func refresh(keys: [BindingKey], within deadline: Duration = .seconds(30)) async throws
        -> [BindingKey]
    {
        var bindings: [Binding] = []
        for key in keys {
            guard let binding = table.binding(for: key) else {
                throw InjectionError.missingBinding(key, requestedBy: nil)
            }
            guard binding.lifetime.changesOnRefresh else { throw InjectionError.notRefreshable(binding) }
            bindings.append(binding)
        }
        return try await refresh(bindings, within: deadline)
    }

    /// The keys of the refreshable bindings this injector resolves: what a watcher of settings
    /// may pass to ``refresh(keys:within:)``.
    ///
    /// ```swift
    /// let changed = injector.refreshableKeys.filter(readersOfChangedSettings.contains)
    /// try await injector.refresh(keys: changed)
    /// ```
    public nonisolated var refreshableKeys: [BindingKey] { refreshableBindings.map(\.key) }

    /// The refreshable bindings this injector resolves, its own first, each once.
    nonisolated var refreshableBindings: [Binding] {
        var found: [Binding] = []
        var current: BindingTable? = table
        while let declaring = current {
            found += declaring.declaredBindings.filter(\.lifetime.changesOnRefresh)
            current = declaring.parent
        }
        return found
    }

    private nonisolated func refresh(_ bindings: [Binding], within deadline: Duration) async throws -> [BindingKey] {
        // Refused from the start of shutdown, while it drains too: a new generation then would
        // only be disposed with the rest.
        guard phase != .shuttingDown, !isShutDown else { throw InjectionError.shutDown(isScope: isScope, key: nil) }
        var replaced: [BindingKey] = []
        var failures: [(key: BindingKey, error: any Error)] = []
        for binding in bindings {
            guard let generations = binding.lifetime.generations, generations.current != nil else { continue }
            do {
                // Asked from inside a construction of this binding (its own rebuild's provider),
                // the refresh would wait for itself: a cycle.
                let asking = try ResolutionFrame.active.map { caller in try enter(binding, below: caller) }
                // Or from inside a rebuild that this binding's own rebuild started, on any path
                // of refreshes (R's provider refreshes Q, Q's refreshes R).
                try Self.refuseRefreshCycle(of: binding)
                // The rebuild's node in the waits-for graph: a construction that asks for the
                // refresh waits on it, so a rebuild that needs that construction is a cycle.
                let node = Construction(key: binding.key)
                let waiter = try asking.flatMap { asking in try WaitGraph.recordWait(of: asking, on: node) }
                defer { if let waiter { WaitGraph.endWait(of: waiter, on: node) } }
                try await generations.coalescing {
                    try await owner(of: binding).replaceGeneration(
                        of: binding, in: generations, within: deadline, as: node)
                }
                replaced.append(binding.key)
            } catch {
                reportFailure(of: binding.key, error)
                failures.append((binding.key, error))
            }
        }
        if failures.contains(where: { ($0.error as? InjectionError)?.code == .shutDown }) {
            throw InjectionError.shutDown(isScope: isScope, key: nil)
        }
        guard failures.isEmpty else { throw InjectionError.refreshFailed(failures) }
        return replaced
    }

    /// Builds the next generation of `binding`, which this injector declares, as `node` (its
    /// node in the waits-for graph), and swaps it in; the replaced one is disposed now if no
    /// request scope uses it.
    private nonisolated func replaceGeneration(
        of binding: Binding,
        in generations: Generations,
        within deadline: Duration,
        as node: Construction
    ) async throws {
        guard !isShutDown else { throw InjectionError.shutDown(isScope: isScope, key: binding.key) }
        let frame = try enter(binding, below: nil).inside(node)
        // Counted from before its task starts until that task ends, answered or given up.
        let work = generations.startWork()
        let rebuild = RunningRebuild(binding)
        let rebuilds = Self.rebuildsAbove + [rebuild]
        let built = try await RefreshDeadline.run(deadline, naming: binding.key) { [self] in
            // Ended when the provider returns: a task it started that outlives it is no part of it.
            defer { rebuild.end() }
            return try await Self.$rebuildsAbove.withValue(rebuilds) {
                try await observingConstruction(of: binding, at: frame) { frame in
                    try await binding.producer.buildAgain(in: self, frame: frame, for: binding)
                }
            }
        } discardingLate: { [self] late in
            if let dispose = binding.disposal(of: late.value, ownedHere: { ownsValues(of: binding) }) {
                _ = await Self.runDisposal(
                    Disposal(key: binding.key, dispose: dispose), after: .succeeded, observing: observing)
            }
        } ended: {
            generations.endWork(work)
        }
        let disposal = binding.disposal(of: built.value, ownedHere: { ownsValues(of: binding) })
            .map { Disposal(key: binding.key, dispose: $0) }
        let next = Generation(box: built.box, number: generations.nextNumber, disposal: disposal)
        // Checked after building: shutdown may have begun meanwhile, and its disposals taken.
        guard keepsValues else {
            if let disposal { _ = await Self.runDisposal(disposal, after: .succeeded, observing: observing) }
            throw InjectionError.shutDown(isScope: isScope, key: binding.key)
        }
        let replaced = generations.replace(with: next)
        if let old = replaced?.disposal { _ = await Self.runDisposal(old, after: .succeeded, observing: observing) }
        // Shutdown ended the binding between the check above and the swap: `next` came back.
        if replaced === next { throw InjectionError.shutDown(isScope: isScope, key: binding.key) }
    }

    /// The rebuilds the current task runs inside, outermost first: a rebuild's task inherits its
    /// caller's and adds its own. Only those still running count (``RunningRebuild``).
    @TaskLocal private static var rebuildsAbove: [RunningRebuild] = []

    /// Refuses a refresh of `binding` asked from inside a rebuild that a rebuild of `binding`
    /// started, both still running: it would wait for that rebuild, which waits for it. A
    /// `circularDependency` naming the rebuilds from `binding`'s own, as the step names a cycle of
    /// constructions.
    private static func refuseRefreshCycle(of binding: Binding) throws(InjectionError) {
        let above = rebuildsAbove.filter(\.isRunning)
        guard let first = above.firstIndex(where: { $0.binding === binding }) else { return }
        let cycle = above[first...].map(\.binding.key) + [binding.key]
        throw .circularDependency(cycle: cycle, path: cycle)
    }

    /// The generation of `binding` this caller reads: in a request scope the one the scope pinned,
    /// pinning the current one at its first read. Asked of an injector outside any scope — a
    /// singleton's `Factory`, a root `get` — from a task running a request scope below it, that
    /// scope pins it too. Elsewhere (no request at all) the current one, pinned by nobody.
    nonisolated func generation(of binding: Binding) -> Generation? {
        guard let generations = binding.lifetime.generations else { return nil }
        guard
            let scope = nearestScope ?? Self.taskCurrent?.nearestScope.flatMap({ $0.descends(from: self) ? $0 : nil }),
            let request = scope.request
        else { return generations.current }
        return request.pin(generations)
    }

    /// Whether this injector is `ancestor` or below it.
    nonisolated func descends(from ancestor: InjectorActor) -> Bool {
        var current: InjectorActor? = self
        while let injector = current {
            if injector === ancestor { return true }
            current = injector.parent
        }
        return false
    }

    /// Releases the generations this request scope pinned, once it has ended (after its own
    /// disposals): a replaced one whose last user this was is disposed now, after `outcome`. Its
    /// failure is the observer's to hear, not the request's: the instance was not the request's.
    nonisolated(nonsending) func release(_ pins: [Generation], after outcome: ScopeOutcome) async {
        for generation in pins where generation.release() {
            guard let disposal = generation.disposal else { continue }
            _ = await Self.runDisposal(disposal, after: outcome, observing: observing)
        }
    }

    /// Adopts the first value of a refreshable binding as its first generation, and records for
    /// shutdown the disposal of whichever generation is current then.
    nonisolated func recordFirstGeneration<T: Sendable>(
        _ value: T,
        of binding: Binding,
        in generations: Generations
    ) -> Bool {
        let dispose = binding.disposal(of: value, ownedHere: { ownsValues(of: binding) })
        let first = Generation(
            box: CellValue.wrap(value), number: 1, disposal: dispose.map { Disposal(key: binding.key, dispose: $0) })
        let atShutdown = Disposal(key: binding.key) { outcome in
            try await generations.retireAtShutdown()?.dispose(after: outcome)
        }
        guard shutdownState.withLock({ $0.record(atShutdown) }), generations.adoptFirst(first) else {
            let observing = observing
            if let disposal = first.disposal {
                Task.detached { _ = await Self.runDisposal(disposal, after: .succeeded, observing: observing) }
            }
            return false
        }
        return true
    }

    /// The health results of refreshable bindings whose last refresh failed: degraded, not
    /// failing readiness, since the previous instance serves.
    nonisolated var refreshHealth: [HealthCheckResult] {
        refreshableBindings.compactMap { binding in
            guard let failure = binding.lifetime.generations?.failure else { return nil }
            return HealthCheckResult(
                name: "refresh \(binding.key)",
                status: .degraded,
                isRequired: false,
                duration: .zero,
                message: "the last refresh failed with \(failure); the previous instance serves"
            )
        }
    }
}
