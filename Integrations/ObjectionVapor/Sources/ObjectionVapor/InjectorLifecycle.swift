import Logging
import NIOConcurrencyHelpers
import Objection
import Vapor

/// Starts the application's injector when the application boots, and shuts it down after the
/// server has stopped; see ``Application/useInjector(_:startupTimeout:drainTimeout:)``.
final class InjectorLifecycle: LifecycleHandler {
    private struct Settings {
        var injector: InjectorActor
        var startupTimeout: Duration?
        var drainTimeout: Duration?
    }

    private let settings: NIOLockedValueBox<Settings>

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
    func didBootAsync(_ application: Application) async throws {
        let current = settings.withLockedValue { $0 }
        application.logger.debug("Starting the injector")
        try await current.injector.start(within: current.startupTimeout)
    }

    func shutdownAsync(_ application: Application) async {
        // Vapor stops the server after every lifecycle handler: stop it now, so that the requests
        // in flight finish before the singletons they use are disposed. Stopping it again later
        // does nothing.
        application.logger.debug("Stopping the server before shutting the injector down")
        await application.server.shutdown()
        application.logger.debug("Shutting the injector down")
        let current = settings.withLockedValue { $0 }
        // In a task of its own: a cancelled shutdown must not cancel the drain or the disposals
        // (a hook that checks for cancellation would fail, a pool would not be closed). The drain
        // waits for the handlers still running — one whose client has gone, one slower than the
        // server's shutdown timeout — up to its deadline.
        let failure = await Task { await current.injector.shutdown(within: current.drainTimeout) }.value
        if let failure {
            application.logger.error(
                "Shutting the injector down reported a problem",
                metadata: ["error": .string(String(describing: failure))]
            )
        }
    }

    func shutdown(_ application: Application) {
        application.logger.warning(
            "The blocking Application.shutdown() cannot dispose the injector's singletons: use asyncShutdown()"
        )
    }
}
