/// One refresh of an injector's refreshable bindings: each binding built before, rebuilt by the
/// injector that declares it, outside any request, within a deadline, and swapped in (the
/// article "Refreshing without a restart"). ``InjectorActor/refresh(within:)`` and its siblings
/// run one.
///
/// ```swift
/// let replaced = try await RefreshRun(of: injector, within: .seconds(30)).run(injector.refreshableBindings)
/// ```
///
/// A refresh asked from inside a rebuild it would wait for is a cycle, refused whether the path
/// runs through constructions (the waits-for graph) or through refreshes (``rebuildsAbove``).
struct RefreshRun: Sendable {
    /// The injector asked to refresh.
    let injector: InjectorActor
    /// How long each rebuild may take.
    let deadline: Duration

    init(of injector: InjectorActor, within deadline: Duration) {
        self.injector = injector
        self.deadline = deadline
    }

    /// Rebuilds and swaps in each of `bindings` that was built; the keys replaced. Throws
    /// `shutDown` once shutdown began, else `refreshFailed` naming the bindings whose rebuild
    /// failed (the others were replaced, and each failure was reported).
    func run(_ bindings: [Binding]) async throws -> [BindingKey] {
        // Refused from the start of shutdown, while it drains too: a new generation then would
        // only be disposed with the rest.
        guard injector.phase != .shuttingDown, !injector.isShutDown else {
            throw InjectionError.shutDown(isScope: injector.isScope, key: nil)
        }
        var replaced: [BindingKey] = []
        var failures: [(key: BindingKey, error: any Error)] = []
        for binding in bindings {
            guard let generations = binding.lifetime.generations else { continue }
            do {
                // Asked from inside a construction of this binding (its own rebuild's provider),
                // the refresh would wait for itself: a cycle.
                let asking = try ResolutionFrame.active.map { caller in try injector.enter(binding, below: caller) }
                let waiting = try asking ?? injector.enter(binding, below: nil)
                guard try await isBuilt(binding, in: generations, waitingAs: waiting) else { continue }
                // Or from inside a rebuild that this binding's own rebuild started, on any path
                // of refreshes (R's provider refreshes Q, Q's refreshes R).
                try Self.refuseRefreshCycle(of: binding)
                // The rebuild's node in the waits-for graph: a construction that asks for the
                // refresh waits on it, so a rebuild that needs that construction is a cycle.
                let node = Construction(key: binding.key)
                let waiter = try asking.flatMap { asking in try WaitGraph.recordWait(of: asking, on: node) }
                defer { if let waiter { WaitGraph.endWait(of: waiter, on: node) } }
                let owner = injector.owner(of: binding)
                try await generations.coalescing {
                    try await replaceGeneration(of: binding, in: generations, as: node, by: owner)
                }
                replaced.append(binding.key)
            } catch {
                injector.reportFailure(of: binding.key, error)
                failures.append((binding.key, error))
            }
        }
        if failures.contains(where: { ($0.error as? InjectionError)?.code == .shutDown }) {
            throw InjectionError.shutDown(isScope: injector.isScope, key: nil)
        }
        guard failures.isEmpty else { throw InjectionError.refreshFailed(failures) }
        return replaced
    }

    /// Whether `binding` has a value to replace. A binding never built is left alone (its first
    /// `get` reads the settings of then), but one whose first value is being built now is waited
    /// for: that build may have read the settings before this refresh was asked, so it is
    /// rebuilt like any other. `frame` is the refresh's, waiting as a step of `binding` would
    /// (a refresh asked from inside that first build is a cycle). A first build that fails leaves
    /// nothing to replace. The wait is bounded by the refresh's deadline, as a rebuild is: a
    /// first build that waits on this refresh through a task of its own (which the waits-for
    /// graph cannot see) ends at it.
    private func isBuilt(
        _ binding: Binding,
        in generations: Generations,
        waitingAs frame: ResolutionFrame
    ) async throws -> Bool {
        if generations.current != nil { return true }
        guard let cell = binding.lifetime.cell, let construction = cell.construction,
            let outcome = cell.outcomeInFlight(excluding: [])
        else {
            // Built since the first look, or never.
            return generations.current != nil
        }
        // Waits as `CellState.wait` does, but tells a cycle this wait would close (thrown) from
        // the build's own failure, which its callers got (nothing to replace).
        construction.recordJoin()
        let waiter = try WaitGraph.recordWait(of: frame, on: construction)
        defer { if let waiter { WaitGraph.endWait(of: waiter, on: construction) } }
        let ended = try await TimeBox.run(within: deadline) {
            do { _ = try await outcome.value() } catch { try Task.checkCancellation() }
        }
        guard ended else { throw InjectionError.refreshTimedOut(binding.key, after: deadline) }
        return generations.current != nil
    }

    /// Builds the next generation of `binding` by `owner`, the injector that declares it, as
    /// `node` (its node in the waits-for graph), and swaps it in; the replaced one is disposed now
    /// if no request scope uses it.
    private func replaceGeneration(
        of binding: Binding,
        in generations: Generations,
        as node: Construction,
        by owner: InjectorActor
    ) async throws {
        guard !owner.isShutDown else { throw InjectionError.shutDown(isScope: owner.isScope, key: binding.key) }
        let frame = try owner.enter(binding, below: nil).inside(node)
        let observing = owner.observing
        // Counted from before its task starts until that task ends, answered or given up.
        let work = generations.startWork()
        let rebuild = RunningRebuild(binding)
        let rebuilds = Self.rebuildsAbove + [rebuild]
        let built = try await RefreshDeadline.run(deadline, naming: binding.key) {
            // Ended when the provider returns: a task it started that outlives it is no part of it.
            defer { rebuild.end() }
            return try await Self.$rebuildsAbove.withValue(rebuilds) {
                try await owner.observingConstruction(of: binding, at: frame) { frame in
                    try await binding.producer.buildAgain(in: owner, frame: frame, for: binding)
                }
            }
        } discardingLate: { late in
            _ = await owner.disposal(of: late.value, builtFor: binding)?.run(after: .succeeded, observing: observing)
        } ended: {
            generations.endWork(work)
        }
        let disposal = owner.disposal(of: built.value, builtFor: binding)
        let next = Generation(box: built.box, number: generations.nextNumber, disposal: disposal)
        // Checked after building: shutdown may have begun meanwhile, and its disposals taken.
        guard owner.keepsValues else {
            if let disposal { _ = await disposal.run(after: .succeeded, observing: observing) }
            throw InjectionError.shutDown(isScope: owner.isScope, key: binding.key)
        }
        let replaced = generations.replace(with: next)
        if let old = replaced?.disposal { _ = await old.run(after: .succeeded, observing: observing) }
        // Shutdown ended the binding between the check above and the swap: `next` came back.
        if replaced === next { throw InjectionError.shutDown(isScope: owner.isScope, key: binding.key) }
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
}
