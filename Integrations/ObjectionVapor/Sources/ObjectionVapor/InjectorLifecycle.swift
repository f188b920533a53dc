import Logging
import NIOConcurrencyHelpers
import Objection
import ObjectionServiceLifecycle
import ServiceLifecycle
import Vapor

/// Runs the application's injector in its lifecycle, through ObjectionServiceLifecycle's
/// `InjectorService`: when the application boots, the services its modules mark with
/// `asService()` run and then its eager singletons are built; at shutdown, once the server has
/// stopped, the injector drains, then the services end, then the singletons are disposed. See
/// ``Application/useInjector(_:startupTimeout:drainTimeout:)``.
final class InjectorLifecycle: LifecycleHandler {
    private struct Settings {
        var injector: InjectorActor
        var startupTimeout: Duration?
        var drainTimeout: Duration?
    }

    /// The group running the `InjectorService` since the boot, and its task.
    private struct Running {
        var group: ServiceGroup
        var task: Task<Void, any Error>
    }

    private let settings: NIOLockedValueBox<Settings>
    private let running = NIOLockedValueBox<Running?>(nil)

    init(injector: InjectorActor, startupTimeout: Duration?, drainTimeout: Duration?) {
        settings = NIOLockedValueBox(
            Settings(injector: injector, startupTimeout: startupTimeout, drainTimeout: drainTimeout)
        )
    }

    var injector: InjectorActor { settings.withLockedValue { $0.injector } }

    /// Makes `injector` the one this handler starts and shuts down.
    func replace(with injector: InjectorActor, startupTimeout: Duration?, drainTimeout: Duration?) {
        settings.withLockedValue {
            $0 = Settings(injector: injector, startupTimeout: startupTimeout, drainTimeout: drainTimeout)
        }
    }

    /// After every handler's `willBoot` and the `didBoot` of those registered before this one,
    /// where Vapor's providers start their services; still before the server accepts a request.
    /// Returns once the injector's services run and its eager singletons are built; a failure
    /// fails the boot with the same error, after what was built has been disposed.
    func didBootAsync(_ application: Application) async throws {
        let current = settings.withLockedValue { $0 }
        application.logger.debug("Starting the injector")
        let service = InjectorService(
            current.injector,
            startupTimeout: current.startupTimeout,
            drainTimeout: current.drainTimeout,
            logger: application.logger
        )
        // No signals: Vapor handles them, and calls shutdownAsync. The group logs what its service
        // throws with the error's description: it sees the service's error as a ServiceFailure,
        // described by type, and the boot throws the error itself (from waitUntilStarted).
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: ServiceFailure.wrapping(service))], logger: application.logger)
        )
        // Unstructured: it runs from the boot to the shutdown, past this call.
        let task = Task { try await group.run() }
        running.withLockedValue { $0 = Running(group: group, task: task) }
        do {
            try await service.waitUntilStarted()
        } catch {
            running.withLockedValue { $0 = nil }
            await group.triggerGracefulShutdown()
            _ = await task.result
            throw error
        }
    }

    func shutdownAsync(_ application: Application) async {
        // Vapor stops the server after every lifecycle handler: stop it now, so that the requests
        // in flight finish before the singletons they use are disposed. Stopping it again later
        // does nothing.
        application.logger.debug("Stopping the server before shutting the injector down")
        await application.server.shutdown()
        application.logger.debug("Shutting the injector down")
        let failure: (any Error)?
        if let current = running.withLockedValue({ $0 }) {
            // The drain — the handlers still running, one whose client has gone, one slower than
            // the server's shutdown timeout — then the services, then the disposals: the
            // InjectorService's graceful shutdown, in tasks a cancellation here does not reach.
            await current.group.triggerGracefulShutdown()
            if case .failure(let error) = await current.task.result {
                failure = ServiceFailure.unwrapped(error)
            } else {
                failure = nil
            }
        } else {
            // Never booted, or the boot failed: nothing runs, the injector may hold what a
            // caller built.
            let current = settings.withLockedValue { $0 }
            failure = await Task { await current.injector.shutdown(within: current.drainTimeout) }.value
        }
        if let failure {
            // What may be shown of it: the service's failure may be a provider's own error.
            application.logger.error(
                "Shutting the injector down reported a problem", metadata: loggedMetadata(of: failure))
        }
    }

    func shutdown(_ application: Application) {
        application.logger.warning(
            "The blocking Application.shutdown() cannot dispose the injector's singletons: use asyncShutdown()"
        )
    }
}
