import Objection
import ServiceLifecycle

/// A service's error as a `ServiceGroup` should see it: described by type, as ``LoggableError``
/// describes it, with the error itself in ``underlying``.
///
/// A `ServiceGroup` logs the error a service throws with its description ("Service threw error",
/// at `debug`), and a provider's or a service's own error may carry a connection string or a
/// token. Throw this from a service instead, and take ``underlying`` (or
/// ``unwrapped(_:)``) from what the group throws. The inner group that runs the injector's services
/// sees their errors this way, and so does the group ObjectionVapor starts at boot.
///
/// ```swift
/// struct Worker: Service {
///     func run() async throws {
///         do { try await consumeQueue() } catch { throw ServiceFailure(error) }
///     }
/// }
/// do { try await group.run() } catch { throw ServiceFailure.unwrapped(error) }
/// ```
public struct ServiceFailure: Error, CustomStringConvertible {
    /// The service's own error.
    public let underlying: any Error

    /// Wraps `underlying`, a service's error.
    public init(_ underlying: any Error) {
        self.underlying = underlying
    }

    /// The error's type, or an `InjectionError`'s own description: never another error's
    /// description (``LoggableError``).
    public var description: String { LoggableError(underlying).description }

    /// `error` unwrapped if it is a ``ServiceFailure``, else `error` itself.
    public static func unwrapped(_ error: any Error) -> any Error {
        (error as? ServiceFailure)?.underlying ?? error
    }

    /// `service`, throwing what it throws as a ``ServiceFailure``: add this to a `ServiceGroup`
    /// whose log may be read by others. ObjectionHummingbird's `addInjector` and ObjectionVapor's
    /// lifecycle add their `InjectorService` so.
    ///
    /// ```swift
    /// let group = ServiceGroup(
    ///     services: [ServiceFailure.wrapping(InjectorService(injector)), server], logger: logger)
    /// ```
    public static func wrapping(_ service: some Service) -> some Service {
        Wrapping(service: service)
    }
}

/// A service whose errors are thrown as ``ServiceFailure``s (``ServiceFailure/wrapping(_:)``).
private struct Wrapping<Wrapped: Service>: Service {
    let service: Wrapped

    func run() async throws {
        do { try await service.run() } catch { throw ServiceFailure(error) }
    }
}
