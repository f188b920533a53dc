import Logging
import Objection
import ServiceLifecycle

extension InjectorService {
    /// Runs the injector's services, starts the injector once they run, and, when the group shuts
    /// down gracefully, ends the services and then shuts the injector down.
    ///
    /// In order, steps 1 to 3 being one start of the injector
    /// (``InjectorActor/start(within:buildingFirst:named:then:)``), under `startupTimeout` and,
    /// for an observer, one startup event:
    /// 1. Builds the singletons marked ``ScopedBindingBuilder/asService()``.
    /// 2. Runs them in an inner `ServiceGroup` without signal handling, which hears the graceful
    ///    shutdown of the group that runs this service and passes it on to them, in reverse order
    ///    of declaration.
    /// 3. Once each service's `run()` has been called, builds the eager singletons, which may now
    ///    use those services.
    /// 4. Waits for graceful shutdown (or cancellation). On graceful shutdown it first drains the
    ///    injector (``InjectorActor/drain(within:)``, up to `drainTimeout`): the request scopes
    ///    still open end while the services they use still run. Then the services end.
    /// 5. Calls ``InjectorActor/shutdown(within:)`` with `drainTimeout`, which waits for the
    ///    request scopes still open (the server's handlers still running) and then disposes the
    ///    singletons in reverse order of construction, services included, each after its `run()`
    ///    returned. It runs in a task of its own, so when the group escalates to cancelling its
    ///    services, the drain still waits for the handlers before it disposes.
    ///
    /// ```swift
    /// let group = ServiceGroup(services: [InjectorService(injector, logger: logger), server], logger: logger)
    /// try await group.run()
    /// ```
    ///
    /// Every way out of `run()` ends the services and shuts the injector down first. A service
    /// that returns or throws on its own ends the others as a `ServiceGroup` would (by
    /// cancelling them), and so ends this service. If the group shuts down while the singletons
    /// are still being built, the services end, the start is given up, and the injector waits for
    /// the constructions in flight before it disposes what they built.
    ///
    /// - Throws: The first failure, after the services ended and the injector shut down: the
    ///   error of resolving the services; the start's (``InjectionError/Code/timedOut`` naming
    ///   each singleton still being built when `startupTimeout` passed, or a provider's error); a
    ///   service's, as the inner group reports it; or else the injector's
    ///   ``InjectionError/Code/disposalFailed``. A disposal failure that is not thrown is logged at
    ///   `error`. When the task is cancelled, `run()` ends the same way and throws only what
    ///   the services threw.
    public func run() async throws {
        let failure = await runServicesAndStart()
        // A start that never finished (the group ended first) ends the wait with the failure, or
        // with cancellation.
        startOutcome.finish(.failure(failure ?? CancellationError()))
        if let failure = await shutDownInjector(after: failure) {
            throw failure
        }
    }

    /// What ends the wait in ``runServicesAndStart()``.
    private enum Step: Sendable {
        case servicesEnded((any Error)?)
        case startFinished((any Error)?)
    }

    /// Starts the injector, runs the services its start builds in an inner group beside it, and
    /// returns when both have ended: the first failure, or `nil`.
    private func runServicesAndStart() async -> (any Error)? {
        let handoff = ServiceHandoff()
        return await withTaskGroup(of: Step.self) { tasks in
            // Given up on graceful shutdown, like a start the services' end cuts short: until the
            // services are built, nothing else here hears it, and a service slow to build would
            // hold the shutdown for as long as it took.
            tasks.addTask {
                .startFinished(
                    await cancelWhenGracefulShutdown { await self.startInjector(handingServicesTo: handoff) })
            }
            var failure: (any Error)?
            // The services, once the start has built them: nil if it ended first.
            if let delivery = await handoff.delivery() {
                let group = makeGroup(running: delivery)
                // A child task, so that the group inherits the graceful shutdown of the group
                // running this service, and its cancellation.
                tasks.addTask {
                    defer { delivery.gate.open() }
                    do {
                        try await group.run()
                        return .servicesEnded(nil)
                    } catch {
                        return .servicesEnded(ServiceFailure.unwrapped(error))
                    }
                }
                while let step = await tasks.next() {
                    switch step {
                    case .startFinished(.none):
                        logger.debug("Injector started")
                    case .startFinished(let error?):
                        failure = failure ?? error
                        await group.triggerGracefulShutdown()
                    case .servicesEnded(let error):
                        // A start still running waits on services that no longer run: give it up.
                        tasks.cancelAll()
                        failure = failure ?? error
                    }
                }
            } else {
                while let step = await tasks.next() {
                    if case .startFinished(let error?) = step { failure = failure ?? error }
                }
            }
            return failure
        }
    }

    /// The inner group that runs the delivered services, each reporting its start at the gate.
    private func makeGroup(running delivery: ServiceHandoff.Delivery) -> ServiceGroup {
        let names = delivery.services.map { String(describing: type(of: $0)) }
        serviceNames.record(names)
        logger.debug(
            "Running the injector's services",
            metadata: ["objection.services": .array(names.map { .string($0) })]
        )
        typealias Configuration = ServiceGroupConfiguration.ServiceConfiguration
        // Listed first, the waiter ends last; it keeps a group without services running too.
        let waiter = Configuration(service: GracefulShutdownWait(), serviceName: "InjectorService")
        // Listed last, the drain hears the graceful shutdown first: the requests still in flight
        // finish while the services they use still run.
        let drain = Configuration(
            service: DrainOnShutdown(injector: injector, timeout: drainTimeout, logger: logger),
            serviceName: "InjectorDrain"
        )
        let configurations =
            [waiter]
            + zip(delivery.services, names).map { service, name in
                Configuration(service: StartReportingService(base: service, gate: delivery.gate), serviceName: name)
            } + [drain]
        return ServiceGroup(configuration: ServiceGroupConfiguration(services: configurations, logger: logger))
    }

    /// Starts the injector: builds its services and hands them over through `handoff`, waits
    /// until each has started, then builds the eager singletons. `nil` on success or when the
    /// start was given up because the services ended, else the error.
    private func startInjector(handingServicesTo handoff: ServiceHandoff) async -> (any Error)? {
        do {
            try await injector.start(
                within: startupTimeout,
                buildingFirst: [any Service].self,
                named: ServiceCollection.name
            ) { services in
                let gate = handoff.deliver(services ?? [])
                // Opened by hand: the group ended before every service started; give the start up.
                guard await gate.waitUnlessCancelled() else { throw ServicesEndedFirst() }
            }
            startOutcome.finish(.success(()))
            return nil
        } catch {
            handoff.giveUp()
            // Ended because the services' group ended first: run() finishes the outcome with the
            // group's failure, which says why.
            if !(error is ServicesEndedFirst) { startOutcome.finish(.failure(error)) }
            let metadata: Logger.Metadata = ["objection.error": .string(LoggableError(error).description)]
            guard !Task.isCancelled, !(error is ServicesEndedFirst) else {
                // Given up because the services ended: their group reports why, if anything failed.
                logger.debug("Injector start given up", metadata: metadata)
                return nil
            }
            logger.debug("Injector start failed", metadata: metadata)
            return error
        }
    }

    /// Shuts the injector down after `failure` (or none), and returns what `run()` throws: the
    /// failure, else the disposal failure. A disposal failure not returned is logged, and so is a
    /// drain cut short at its deadline, always: it names what was still running, and when the
    /// group was cancelled around a handler that never returns, nobody receives what `run()`
    /// throws.
    private func shutDownInjector(after failure: (any Error)?) async -> (any Error)? {
        logger.debug("Shutting the injector down")
        // In a task of its own: a cancelled group must not cancel the drain or the disposals (a
        // handler still running would lose its singletons, a hook that checks for cancellation
        // would fail, a pool would not be closed).
        let (injector, drainTimeout) = (injector, drainTimeout)
        let shutdown = Task { await injector.shutdown(within: drainTimeout) }
        guard let disposalFailure = await shutdown.value else { return failure }
        if failure != nil || disposalFailure.code == .timedOut {
            logger.error(
                disposalFailure.code == .timedOut
                    ? "The injector's drain was cut short at its deadline"
                    : "Disposing the injector's singletons failed",
                metadata: ["objection.error": .string(disposalFailure.description)]
            )
        }
        return failure ?? disposalFailure
    }
}

/// Ends a start whose services' group ended before each of them started: that group reports why.
private struct ServicesEndedFirst: Error {}
