import Logging
import Objection
import ServiceLifecycle

/// The last service of ``InjectorService``'s inner group, so the first to hear its graceful
/// shutdown: it drains the injector — waits for the request scopes still open, whose handlers may
/// still use the services — before the group goes on to end the services themselves.
struct DrainOnShutdown: Service {
    let injector: InjectorActor
    let timeout: Duration?
    let logger: Logger

    func run() async {
        // Cancellation ends the wait too: then every service is being cancelled at once, and
        // the injector's shutdown still drains before it disposes.
        guard (try? await gracefulShutdown()) != nil else { return }
        logger.debug("Draining the injector before its services end")
        // In a task of its own, so that an escalation to cancellation does not cut the drain.
        let (injector, timeout) = (injector, timeout)
        if let cut = await Task(operation: { await injector.drain(within: timeout) }).value {
            logger.warning(
                "The injector's drain was cut short at its deadline",
                metadata: ["objection.error": .string(cut.description)]
            )
        }
    }
}
