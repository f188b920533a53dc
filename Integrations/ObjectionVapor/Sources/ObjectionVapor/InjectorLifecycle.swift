import Logging
import NIOConcurrencyHelpers
import Objection
import Vapor

/// Starts the application's injector when the application boots, and shuts it down after the
/// server has stopped; see ``Application/useInjector(_:startupTimeout:)``.
final class InjectorLifecycle: LifecycleHandler {
    private struct Settings {
        var injector: InjectorActor
        var startupTimeout: Duration?
    }

    private let settings: NIOLockedValueBox<Settings>

    init(injector: InjectorActor, startupTimeout: Duration?) {
        settings = NIOLockedValueBox(Settings(injector: injector, startupTimeout: startupTimeout))
    }

    var injector: InjectorActor { settings.withLockedValue { $0.injector } }

    /// Makes `injector` the one this handler starts and shuts down.
    func replace(with injector: InjectorActor, startupTimeout: Duration?) {
        settings.withLockedValue { $0 = Settings(injector: injector, startupTimeout: startupTimeout) }
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
        let injector = injector
        // In a task of its own: a cancelled shutdown must not cancel the disposals (a hook that
        // checks for cancellation would fail, a pool would not be closed).
        if let failure = await Task(operation: { await injector.shutdown() }).value {
            application.logger.error(
                "Disposing the injector's singletons failed",
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
