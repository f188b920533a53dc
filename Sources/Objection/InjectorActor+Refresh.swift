/// Refreshable bindings: reading the generation a request uses, and replacing it while the
/// injector runs (the article "Refreshing without a restart"); one refresh's sequence is
/// ``RefreshRun``.
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
        try await RefreshRun(of: self, within: deadline).run(refreshableBindings)
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
            // An `Injectable` type declared refreshable is bound just in time, as `get` binds it.
            guard let binding = try table.binding(for: key) ?? justInTimeBinding(for: key, as: key.type) else {
                throw InjectionError.missingBinding(key, requestedBy: nil)
            }
            guard binding.lifetime.changesOnRefresh else { throw InjectionError.notRefreshable(binding) }
            bindings.append(binding)
        }
        return try await RefreshRun(of: self, within: deadline).run(bindings)
    }

    /// The keys of the refreshable bindings this injector resolves: what a watcher of settings
    /// may pass to ``refresh(keys:within:)``.
    ///
    /// ```swift
    /// let changed = injector.refreshableKeys.filter(readersOfChangedSettings.contains)
    /// try await injector.refresh(keys: changed)
    /// ```
    public nonisolated var refreshableKeys: [BindingKey] { refreshableBindings.map(\.key) }

    /// The refreshable bindings this injector resolves, its own first, each once: those its
    /// hierarchy declares, then the ``Injectable`` types declared refreshable that were bound just
    /// in time so far (one never bound was never built: there is nothing to refresh).
    nonisolated var refreshableBindings: [Binding] {
        var found: [Binding] = []
        var current: BindingTable? = table
        while let declaring = current {
            found += declaring.declaredBindings.filter(\.lifetime.changesOnRefresh)
            current = declaring.parent
        }
        let justInTime = (root.justInTime?.all ?? []).filter(\.lifetime.changesOnRefresh)
        return found + justInTime.sorted { $0.key.description < $1.key.description }
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
            _ = await disposal.run(after: outcome, observing: observing)
        }
    }

    /// Adopts the first value of a refreshable binding as its first generation, and records for
    /// shutdown the disposal of whichever generation is current then.
    nonisolated func recordFirstGeneration<T: Sendable>(
        _ value: T,
        of binding: Binding,
        in generations: Generations
    ) -> Bool {
        let first = Generation(box: CellValue.wrap(value), number: 1, disposal: disposal(of: value, builtFor: binding))
        let atShutdown = Disposal(key: binding.key) { outcome in
            try await generations.retireAtShutdown()?.dispose(after: outcome)
        }
        guard shutdownState.withLock({ $0.record(atShutdown) }), generations.adoptFirst(first) else {
            let observing = observing
            if let disposal = first.disposal {
                Task.detached { _ = await disposal.run(after: .succeeded, observing: observing) }
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
