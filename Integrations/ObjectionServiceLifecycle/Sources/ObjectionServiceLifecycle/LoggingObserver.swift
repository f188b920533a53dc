import Logging
import Objection

/// An ``InjectionObserver`` that logs what the injector builds and disposes with swift-log.
///
/// | Event | Level | Message |
/// |---|---|---|
/// | construction started | `trace` | `Building instance` |
/// | construction finished | `debug` | `Built instance` |
/// | construction failed | `error` | `Building instance failed` |
/// | disposal succeeded | `trace` | `Disposed instance` |
/// | disposal failed | `error` | `Disposing instance failed` |
/// | `get` threw an ``InjectionError`` | `warning` | `Resolution failed` |
/// | `get` threw another error | `debug` | `Resolution failed` |
///
/// Messages are constant; the rest is metadata: `objection.key` (the binding key, such as
/// `Database named "replica"`), `objection.scope`, `objection.duration`, and `objection.error`.
/// Nothing logged is a value: the key names a type and a binding name, and `objection.error` is
/// an ``InjectionError``'s description, which names types only, or else only the error's type
/// (`PSQLError`), since another error's description may carry values such as a connection string.
/// A `get` that throws a provider's own error is logged at `debug` only: its caller has the error
/// and decides; the construction that threw it, if cached, is already logged at `error`.
///
/// ```swift
/// var logger = Logger(label: "injector")
/// logger.logLevel = .debug
/// let injector = try await InjectorActor(
///     modules: [AppModule()],
///     startup: .deferred,
///     observer: LoggingObserver(logger: logger)
/// )
/// // debug: Built instance objection.key=PostgresClient objection.scope=singleton objection.duration=…
/// ```
public struct LoggingObserver: InjectionObserver {
    /// Where the events are logged.
    let logger: Logger

    /// Creates an observer that logs to `logger`.
    ///
    /// ```swift
    /// let observer = LoggingObserver(logger: Logger(label: "injector"))
    /// ```
    ///
    /// - Parameter logger: The logger; its level decides which events are logged.
    public init(logger: Logger) {
        self.logger = logger
    }

    /// Whether the logger's level lets through what successes log (`debug` and `trace`): at
    /// `info` and above the injector skips timing and reporting successful constructions and
    /// disposals, and this observer hears failures only. Read when the injector is created.
    ///
    /// ```swift
    /// var logger = Logger(label: "injector")
    /// logger.logLevel = .info
    /// LoggingObserver(logger: logger).observesSuccesses   // false
    /// ```
    public var observesSuccesses: Bool { logger.logLevel <= .debug }

    /// Logs `Building instance` at `trace`.
    ///
    /// ```swift
    /// // trace: Building instance objection.key=PostgresClient objection.scope=singleton
    /// ```
    ///
    /// - Parameters:
    ///   - key: The binding being built.
    ///   - scope: Its lifetime.
    public func constructionStarted(_ key: BindingKey, scope: Scope) {
        logger.trace("Building instance", metadata: ["objection.key": "\(key)", "objection.scope": "\(scope)"])
    }

    /// Logs `Built instance` at `debug`, with how long it took.
    ///
    /// ```swift
    /// // debug: Built instance objection.key=PostgresClient objection.scope=singleton objection.duration=0.002 seconds
    /// ```
    ///
    /// - Parameters:
    ///   - key: The binding built.
    ///   - scope: Its lifetime.
    ///   - duration: How long its provider took, its dependencies included.
    public func constructionFinished(_ key: BindingKey, scope: Scope, duration: Duration) {
        logger.debug(
            "Built instance",
            metadata: ["objection.key": "\(key)", "objection.scope": "\(scope)", "objection.duration": "\(duration)"]
        )
    }

    /// Logs `Building instance failed` at `error`, naming the error safely (see ``LoggingObserver``).
    ///
    /// ```swift
    /// // error: Building instance failed objection.key=PostgresClient objection.error=PSQLError …
    /// ```
    ///
    /// - Parameters:
    ///   - key: The binding whose provider failed.
    ///   - scope: Its lifetime.
    ///   - duration: How long the attempt took.
    ///   - error: The provider's error, or the ``InjectionError`` of a dependency.
    public func constructionFailed(_ key: BindingKey, scope: Scope, duration: Duration, error: any Error) {
        logger.error(
            "Building instance failed",
            metadata: [
                "objection.key": "\(key)",
                "objection.scope": "\(scope)",
                "objection.duration": "\(duration)",
                "objection.error": "\(LoggableError(error))",
            ]
        )
    }

    /// Logs `Disposed instance` at `trace`, or `Disposing instance failed` at `error`.
    ///
    /// ```swift
    /// // error: Disposing instance failed objection.key=PostgresClient objection.error=PSQLError …
    /// ```
    ///
    /// - Parameters:
    ///   - key: The binding whose instance was disposed.
    ///   - duration: How long its disposal took.
    ///   - error: What the disposal threw, if anything.
    public func disposed(_ key: BindingKey, duration: Duration, error: (any Error)?) {
        guard let error else {
            logger.trace(
                "Disposed instance", metadata: ["objection.key": "\(key)", "objection.duration": "\(duration)"])
            return
        }
        logger.error(
            "Disposing instance failed",
            metadata: [
                "objection.key": "\(key)",
                "objection.duration": "\(duration)",
                "objection.error": "\(LoggableError(error))",
            ]
        )
    }

    /// Logs `Resolution failed`: at `warning` for an ``InjectionError`` (a missing binding, a
    /// cycle, a shut-down injector), at `debug` for a provider's own error.
    ///
    /// ```swift
    /// // warning: Resolution failed objection.key=CheckoutService objection.error=No binding for 'PaymentGateway' …
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key the caller asked for.
    ///   - error: What the caller received.
    public func resolutionFailed(_ key: BindingKey, error: any Error) {
        let level: Logger.Level = error is InjectionError ? .warning : .debug
        logger.log(
            level: level,
            "Resolution failed",
            metadata: ["objection.key": "\(key)", "objection.error": "\(LoggableError(error))"]
        )
    }
}
