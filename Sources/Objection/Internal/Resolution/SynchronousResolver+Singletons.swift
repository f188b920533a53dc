/// The step of a singleton (and of a ``Lazy`` handle's cell): built once, in a task of its own,
/// by the injector that declares it.
extension SynchronousResolver {
    /// The step of a singleton that was not built when the step read it: a caller outside any
    /// construction joins the one in flight (it can close no cycle and go no deeper, so it needs
    /// no step of its own — what makes each of a stampede's waiters cheap); otherwise the first
    /// caller starts the one construction, in a task of its own, and every caller waits for it.
    /// It ends as every cached construction does (ConstructionPolicy.swift).
    func claimSingleton<T: Sendable>(
        _ binding: Binding,
        producer: Recipe<T>,
        for driver: StepDriver
    ) throws(SynchronousStop) -> T {
        let parent = driver.parent
        guard let cell = binding.lifetime.cell else {
            let frame = try injector.enterStep(binding, below: parent)
            throw driver.suspend(.build(PendingBuild(injector: injector.owner(of: binding), frame: frame)))
        }
        if parent == nil, let joined = cell.join(as: binding.key) {
            switch joined {
            case .built(let box):
                return CellValue.unwrap(box, as: T.self)
            case .wait(let construction, let outcome):
                throw driver.suspend(.wait(ConstructionWait(construction: construction, outcome: outcome, waiter: nil)))
            }
        }
        let frame = try injector.enterStep(binding, below: parent)
        switch cell.claimToStart(as: binding.key) {
        case .built(let box):
            return CellValue.unwrap(box, as: T.self)
        case .wait(let construction, let outcome):
            throw driver.suspend(.wait(ConstructionWait(construction: construction, outcome: outcome, waiter: frame)))
        case .build(let (construction, outcome)):
            do {
                try Self.startConstruction(
                    of: binding, producer: producer, by: injector.owner(of: binding), in: cell, as: construction,
                    frame: frame.inside(construction))
            } catch {
                // Never started: nothing runs that a shutdown must wait for.
                construction.endRun()
                cell.fail(construction, with: error)
                throw .failed(error)
            }
            throw driver.suspend(.wait(ConstructionWait(construction: construction, outcome: outcome, waiter: frame)))
        }
    }

    /// Starts `construction`, which runs at `frame` in `owner`, the injector that declares
    /// `binding`, unless `owner` is shutting down.
    private static func startConstruction<T: Sendable>(
        of binding: Binding,
        producer: Recipe<T>,
        by owner: InjectorActor,
        in cell: CacheCell,
        as construction: Construction,
        frame: ResolutionFrame
    ) throws(InjectionError) {
        // Checked after claiming the cell: shutdown sets the flag before it looks for
        // constructions in flight, so it either sees this one and waits for it, or this check
        // sees the flag. (Shutdown looks in the table's cells, not in a handle's: a handle's
        // value that comes too late is refused by `construct`.)
        guard !owner.isShutDown else { throw .shutDown(isScope: owner.isScope, key: binding.key) }
        // Heard starting here, on the task that asked: an observer reads its task-local values.
        // A handle is not heard: the binding it reads is, if it is built.
        let started = binding.lifetime.isHandle ? nil : owner.startingConstruction(of: binding, at: frame)
        cell.startDetached(construction) {
            // The construction ends itself, for its waiters; no one waits for this task's value.
            _ = try? await cell.construct(
                binding, producer: producer, by: owner, at: frame, observed: started, as: construction)
        }
    }
}
