import Synchronization

/// Wiring by hand: the baseline every ratio is relative to.
public enum HandWritten {
    @inline(never)
    public static func service() -> Service {
        Service(a: A(d: D()), b: B(e: E(), f: F()), c: C(g: G()))
    }

    /// The singletons of the per-request case, built once, stored in `let`s.
    public final class RequestRoot: Sendable {
        let database = Database()
        let cache = Cache()
        let metrics = Metrics()
        let settings = Settings()
        let clock = Clock()

        public init() {}

        /// One request: its scoped objects, the handler, the unit of work committed at the end.
        @inline(never)
        public func serve() -> Handler {
            let context = RequestContext()
            let work = UnitOfWork(database: database)
            let handler = Handler(
                context: context,
                logger: RequestLogger(context: context),
                work: work,
                cache: cache,
                metrics: metrics,
                settings: settings,
                validator: Validator(),
                serializer: Serializer(clock: clock)
            )
            work.commit()
            return handler
        }
    }

    /// The cost of any thread-safe cache: a `Mutex`-guarded dictionary lookup.
    public final class MutexCache: Sendable {
        private let storage = Mutex<[ObjectIdentifier: Engine]>([ObjectIdentifier(Engine.self): Engine()])

        public init() {}

        @inline(never)
        public func engine() -> Engine? { storage.withLock { $0[ObjectIdentifier(Engine.self)] } }
    }

    /// A stored reference: the floor for a cached singleton.
    public final class StoredReference: Sendable {
        let engine = Engine()
        public init() {}

        /// Not optimised, so that the loop really reads the reference each time.
        @inline(never) @_optimize(none)
        public func read() -> Engine { engine }
    }

    /// A hand-written single flight: every caller awaits one shared task.
    public actor SingleFlight {
        private var task: Task<Engine, Never>?
        private let construct: @Sendable () async -> Engine

        public init(construct: @escaping @Sendable () async -> Engine) {
            self.construct = construct
        }

        public func value() async -> Engine {
            if let task { return await task.value }
            let task = Task { await construct() }
            self.task = task
            return await task.value
        }
    }
}
