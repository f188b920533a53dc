import Logging
import Objection
import PostgresNIO

/// The process's PostgreSQL connection pool: a `PostgresClient` together with the task that runs
/// it, a singleton of the root injector that owns both.
///
/// A `PostgresClient` answers queries only while its `run()` runs, and closes its connections when
/// that `run()` ends. Vapor has no service group to run it, and ObjectionVapor has no counterpart
/// of ObjectionServiceLifecycle's `asService()`, so this singleton runs it itself: its
/// construction starts `run()` in a task, and its disposal cancels that task and waits until the
/// pool has closed its connections. The injector disposes it last of the singletons that use it
/// (in reverse order of construction), and ObjectionVapor shuts the injector down only once the
/// HTTP server has stopped and the requests in flight have finished, so no transaction is open
/// when the pool closes.
public final class DatabaseClient: AsyncDisposable {
    /// The name under which it appears in the ``LifecycleLog``.
    public static let lifecycleName = "database-client"

    /// The pool; its queries work between this object's construction and its disposal.
    public let client: PostgresClient
    private let running: Task<Void, Never>
    private let lifecycle: LifecycleLog

    /// Creates the client and starts running it.
    ///
    /// - Parameters:
    ///   - config: Where the database is.
    ///   - lifecycle: Where construction and disposal are recorded.
    ///   - logger: The pool's background logger.
    public init(config: AppConfig, lifecycle: LifecycleLog, logger: Logger) {
        let client = PostgresClient(configuration: config.database.clientConfiguration, backgroundLogger: logger)
        self.client = client
        self.lifecycle = lifecycle
        self.running = Self.run(client)
        lifecycle.record(.built(Self.lifecycleName))
    }

    /// Starts `client.run()`. Where the task can start at once, on this thread, `run()` has marked
    /// the client as running before this returns, and a query sent right after does not make the
    /// client warn that it is not running yet (the query would wait for it either way).
    private static func run(_ client: PostgresClient) -> Task<Void, Never> {
        #if os(Linux)
            return Task.immediate { await client.run() }
        #else
            if #available(macOS 26.0, *) {
                return Task.immediate { await client.run() }
            }
            return Task { await client.run() }
        #endif
    }

    /// Ends the client's `run()` and waits until it has returned: the pool has closed its
    /// connections, and its queries fail from now on.
    public func dispose() async throws {
        running.cancel()
        await running.value
        lifecycle.record(.disposed(Self.lifecycleName))
    }
}
