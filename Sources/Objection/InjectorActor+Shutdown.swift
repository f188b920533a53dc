/// Ordered asynchronous shutdown.
extension InjectorActor {
    /// Disposes everything this injector built and cached, in reverse order of construction, each
    /// exactly once, and releases its caches.
    ///
    /// Singletons are disposed by the injector that declares them; a request scope disposes its
    /// scoped instances when it ends. Values bound with `toInstance` are not disposed. One
    /// failing disposal does not stop the others. Constructions still in flight are awaited first
    /// and what they build is disposed too. Afterwards `get`, `child(modules:)` and
    /// `withScope(modules:_:)` throw ``InjectionError/Code/shutDown``. Calling it again waits for
    /// the first call and does nothing more.
    ///
    /// ```swift
    /// if let failure = await injector.shutdown() {
    ///     logger.error("\(failure)")
    /// }
    /// ```
    ///
    /// - Returns: `nil` when every disposal succeeded; otherwise an
    ///   ``InjectionError/Code/disposalFailed`` error with one problem per failure, each carrying
    ///   the disposal's error as ``InjectionError/underlying``.
    @discardableResult
    public func shutdown() async -> InjectionError? {
        switch shutdownState {
        case .finished:
            return nil
        case .inProgress:
            await withCheckedContinuation { continuation in
                if case .inProgress(let waiting) = shutdownState {
                    shutdownState = .inProgress(waiting + [continuation])
                } else {
                    continuation.resume()
                }
            }
            return nil
        case .running:
            lifecycle.markShutDown()
            shutdownState = .inProgress([])
            let failure = await disposeAll()
            if case .inProgress(let waiting) = shutdownState {
                for continuation in waiting { continuation.resume() }
            }
            shutdownState = .finished
            return failure
        }
    }

    private func disposeAll() async -> InjectionError? {
        // No construction starts after the mark; wait for those already running, whose values
        // are recorded for disposal as they finish.
        while let (slot, flight) = inFlight.first {
            await flight.finish()
            inFlight[slot] = nil
        }
        // Scoped constructions run in their requests' tasks; wait for those still building, so
        // what they build is recorded and disposed below.
        for cell in scopedCells.all {
            if let construction = cell.building { _ = try? await cell.wait(for: construction) }
        }
        if ownsTable {
            for binding in table.declaredBindings { binding.cell?.clear() }
        }
        for binding in justInTime?.all ?? [] { binding.cell?.clear() }
        scopedCells.removeAll()
        var failures: [(key: BindingKey, error: any Error)] = []
        for disposal in disposalLog.close().reversed() {
            do {
                try await disposal.dispose()
            } catch {
                failures.append((disposal.key, error))
            }
        }
        return failures.isEmpty ? nil : .disposalFailed(failures)
    }
}

/// Where an injector's ``InjectorActor/shutdown()`` is.
enum ShutdownState {
    case running
    /// Disposing; later callers wait to be resumed.
    case inProgress([CheckedContinuation<Void, Never>])
    case finished
}
