import Hummingbird
import Logging
import Objection
import ServiceLifecycle
import Synchronization
import UnixSignals

extension ApplicationProtocol {
    /// Runs the application as `runService(gracefulShutdownSignals:)` does, with a bound on its
    /// whole shutdown: the process ends within `gracefulShutdownTimeout` plus `cancellationTimeout`
    /// of the signal, whatever a request handler is stuck on.
    ///
    /// Hummingbird's own graceful shutdown waits for the requests in flight without a limit, and
    /// the injector's drain (see ``Application/addInjector(_:startupTimeout:drainTimeout:logger:)``)
    /// begins only after the server has stopped. With this call:
    ///
    /// 1. on a signal, the server stops accepting connections and finishes the requests in flight,
    ///    then the application's services stop in reverse order — the injector drains, up to its
    ///    drain deadline, and disposes;
    /// 2. if that has not finished within `gracefulShutdownTimeout`, the application is cancelled:
    ///    handlers that honour cancellation end, and the injector's drain, cancelled, waits for
    ///    the request scopes still open up to its drain deadline, logs what was still running
    ///    (the request scopes still open, the constructions in flight) and disposes;
    /// 3. if the application has still not returned `cancellationTimeout` later — a handler
    ///    awaiting something that never returns and ignores cancellation — this logs it at
    ///    `critical` and throws ``ShutdownTimedOut``, leaving the stuck work behind for the
    ///    process's exit to end.
    ///
    /// ```swift
    /// var app = Application(router: router, logger: logger)
    /// app.addInjector(injector, drainTimeout: .seconds(5))
    /// try await app.runService(gracefulShutdownTimeout: .seconds(20))   // the process ends ≤ 25 s after SIGTERM
    /// ```
    ///
    /// - Parameters:
    ///   - gracefulShutdownSignals: The signals that begin the shutdown.
    ///   - gracefulShutdownTimeout: How long the graceful part may take before the application is
    ///     cancelled. Choose it longer than the injector's drain deadline if the drain should run
    ///     before the cancellation. `InjectorActor.longestDeadline` or more is no limit.
    ///   - cancellationTimeout: How long the application may take to return once cancelled.
    ///     `InjectorActor.longestDeadline` or more is no limit.
    /// - Throws: What the application's run throws; ``ShutdownTimedOut`` when it did not return
    ///   within both limits.
    public func runService(
        gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
        gracefulShutdownTimeout: Duration,
        cancellationTimeout: Duration = .seconds(5)
    ) async throws {
        let watch = ShutdownWatch()
        var configuration = ServiceGroupConfiguration(
            services: [.init(service: self), .init(service: watch)],
            gracefulShutdownSignals: gracefulShutdownSignals,
            logger: logger
        )
        // A timeout of InjectorActor.longestDeadline or more is none, as the injector's own are:
        // the group's timer and Task.sleep trap past Int64 nanoseconds.
        let unbounded = max(gracefulShutdownTimeout, cancellationTimeout) >= InjectorActor.longestDeadline
        if gracefulShutdownTimeout < InjectorActor.longestDeadline {
            configuration.maximumGracefulShutdownDuration = gracefulShutdownTimeout
        }
        let group = ServiceGroup(configuration: configuration)
        let limit = gracefulShutdownTimeout + cancellationTimeout
        // Unstructured: a stuck handler keeps the application's task tree alive, and a structured
        // wait would wait with it.
        let running = Task { try await group.run() }
        let (ends, end) = AsyncStream.makeStream(of: Result<Void, any Error>?.self)
        Task { end.yield(await running.result) }
        Task {
            guard !unbounded, await watch.began() else { return }
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            end.yield(nil)
        }
        let first = await withTaskCancellationHandler {
            var iterator = ends.makeAsyncIterator()
            return await iterator.next()
        } onCancel: {
            running.cancel()
        }
        end.finish()
        switch first {
        case .some(.some(let finished)):
            try finished.get()
        case .some(.none):
            logger.critical(
                "Graceful shutdown did not finish within \(limit); returning with work still running",
                metadata: ["shutdown.limit": "\(limit)"]
            )
            throw ShutdownTimedOut(limit: limit)
        case .none:
            throw CancellationError()
        }
    }
}

/// The application's shutdown did not finish within the bound given to
/// `runService(gracefulShutdownSignals:gracefulShutdownTimeout:cancellationTimeout:)`: something
/// it runs ignored cancellation. What the injector's drain found still running is in its log.
///
/// ```swift
/// do { try await app.runService(gracefulShutdownTimeout: .seconds(20)) } catch let error as ShutdownTimedOut {
///     logger.critical("\(error)")   // and the process exits
/// }
/// ```
public struct ShutdownTimedOut: Error, CustomStringConvertible {
    /// The whole bound: the graceful part and the cancellation.
    ///
    /// ```swift
    /// ShutdownTimedOut(limit: .seconds(25)).limit   // 25 seconds
    /// ```
    public let limit: Duration

    /// "Shutdown did not finish within 25.0 seconds".
    ///
    /// ```swift
    /// print(ShutdownTimedOut(limit: .seconds(25)))
    /// ```
    public var description: String { "Shutdown did not finish within \(limit)" }
}

/// A service that returns as soon as its group begins a graceful shutdown — listed last, it is the
/// first one told — and says when that was.
private final class ShutdownWatch: Service {
    private let state = Mutex<(began: Bool?, waiters: [CheckedContinuation<Bool, Never>])>((nil, []))

    func run() async throws {
        let shutdown: Bool
        do {
            try await gracefulShutdown()
            shutdown = true
        } catch {
            shutdown = false
        }
        let waiters = state.withLock { state in
            state.began = shutdown
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: shutdown) }
    }

    /// Whether the group began a graceful shutdown (`false`: it was cancelled instead).
    func began() async -> Bool {
        await withCheckedContinuation { continuation in
            let known = state.withLock { state in
                if state.began == nil { state.waiters.append(continuation) }
                return state.began
            }
            if let known { continuation.resume(returning: known) }
        }
    }
}
