/// Where an injector is in its life, as readiness sees it.
///
/// ```swift
/// if injector.phase == .shuttingDown { logger.info("draining") }
/// ```
public enum InjectorPhase: String, Sendable, Hashable, Encodable, CustomStringConvertible {
    /// Created with ``Startup/deferred`` and ``InjectorActor/start(within:)`` has not succeeded
    /// yet: not ready.
    case starting
    /// Started, serving.
    case running
    /// ``InjectorActor/shutdown(within:)`` has begun: draining, not ready.
    case shuttingDown
    /// Shut down.
    case shutDown

    /// `starting`, `running`, `shuttingDown` or `shutDown`.
    public var description: String { rawValue }
}
