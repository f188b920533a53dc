import Synchronization

/// The per-request graph: a handler that needs 3 scoped, 5 singleton and 2 transient objects.
public final class Database: Sendable { public init() {} }
public final class Cache: Sendable { public init() {} }
public final class Metrics: Sendable { public init() {} }
public final class Settings: Sendable { public init() {} }
public final class Clock: Sendable { public init() {} }

/// Scoped: one per request.
public final class RequestContext: Sendable { public init() {} }
public final class RequestLogger: Sendable {
    public let context: RequestContext
    public init(context: RequestContext) { self.context = context }
}

/// Scoped and disposed at the end of the request.
public final class UnitOfWork: Sendable {
    public let database: Database
    private let committed = Atomic<Bool>(false)
    public init(database: Database) { self.database = database }

    public func commit() { committed.store(true, ordering: .relaxed) }
}

/// Transient.
public final class Validator: Sendable { public init() {} }
public final class Serializer: Sendable {
    public let clock: Clock
    public init(clock: Clock) { self.clock = clock }
}

public final class Handler: Sendable {
    public let context: RequestContext
    public let logger: RequestLogger
    public let work: UnitOfWork
    public let cache: Cache
    public let metrics: Metrics
    public let settings: Settings
    public let validator: Validator
    public let serializer: Serializer

    public init(
        context: RequestContext,
        logger: RequestLogger,
        work: UnitOfWork,
        cache: Cache,
        metrics: Metrics,
        settings: Settings,
        validator: Validator,
        serializer: Serializer
    ) {
        self.context = context
        self.logger = logger
        self.work = work
        self.cache = cache
        self.metrics = metrics
        self.settings = settings
        self.validator = validator
        self.serializer = serializer
    }
}
