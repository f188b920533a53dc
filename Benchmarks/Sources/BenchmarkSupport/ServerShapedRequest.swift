import Objection

/// The objects of a request shaped like the example server's `GET /links/:code`: a request scope
/// with the request's id, user and logger as values; inside it, a transaction scope entered
/// through `withScope(around:)` with the transaction's connection as its value; a transient
/// service over a scoped store (on the connection), a scoped audit (disposed when the transaction
/// scope ends) and singletons. No database: the connection is a stand-in object.
public enum ServerShapedRequest {
    public struct RequestID: Sendable { public let value: Int }
    public struct User: Sendable { public let name: String }
    public struct RequestLog: Sendable { public let label: String }
    public final class Connection: Sendable { public init() {} }
    public final class Database: Sendable { public init() {} }
    public final class Codes: Sendable { public init() {} }
    public final class AuditSink: Sendable { public init() {} }
    public final class Counters: Sendable { public init() {} }

    public final class Store: Sendable {
        public let connection: Connection
        public init(connection: Connection) { self.connection = connection }
    }

    public final class Audit: AsyncDisposable {
        public init(requestID: RequestID, user: User, sink: AuditSink, counters: Counters) {}
        public func dispose() async throws {}
    }

    public final class Service: Sendable {
        public let requestID: RequestID
        public init(
            requestID: RequestID,
            user: User,
            store: Store,
            codes: Codes,
            audit: Audit,
            counters: Counters,
            log: RequestLog
        ) {
            self.requestID = requestID
        }
    }

    /// The bindings, as the example's `AppModule` declares them.
    public struct Bindings: Module {
        public init() {}

        public func configure(_ binder: Binder) {
            binder.bind(Counters.self).to(Counters.init).asEagerSingleton()
            binder.bind(Codes.self).to(Codes.init).asSingleton()
            binder.bind(AuditSink.self).to(AuditSink.init).asSingleton()
            binder.bind(Database.self).to(Database.init).asEagerSingleton()
            binder.bind(RequestID.self).suppliedByScope()
            binder.bind(User.self).suppliedByScope()
            binder.bind(RequestLog.self).suppliedByScope()
            binder.bind(Connection.self).suppliedByScope()
            binder.bind(Store.self).to(Store.init).inScope(.scoped)
            binder.bind(Audit.self).to(Audit.init).inScope(.scoped)
            binder.bind(Service.self).to(Service.init)
        }
    }

    /// An observer that keeps the defaults: what installing one costs by itself.
    public struct SilentObserver: InjectionObserver {
        public init() {}
    }

    /// An observer of failures only, as `LoggingObserver` is at `info`: what the injector does
    /// for an observer when nothing fails.
    public struct FailureObserver: InjectionObserver {
        public init() {}
        public var observesSuccesses: Bool { false }
    }

    /// One request through the injector.
    public static func serve(_ injector: InjectorActor, id: Int, connection: Connection) async throws -> Service {
        try await injector.withScope(values: { values in
            values.bind(RequestID.self, to: RequestID(value: id))
            values.bind(User.self, to: User(name: "alice"))
            values.bind(RequestLog.self, to: RequestLog(label: "request"))
        }) { request in
            sink(try await request.get(Database.self))
            return try await request.withScope(around: { enter in
                try await enter { $0.bind(Connection.self, to: connection) }
            }) { transaction in
                try await transaction.get(Service.self)
            }
        }
    }

    /// The same request wired by hand.
    public final class HandWired: Sendable {
        let database = Database()
        let codes = Codes()
        let sink = AuditSink()
        let counters = Counters()

        public init() {}

        @inline(never)
        public func serve(id: Int, connection: Connection) async throws -> Service {
            let requestID = RequestID(value: id)
            let user = User(name: "alice")
            let log = RequestLog(label: "request")
            BenchmarkSupport.sink(database)
            let audit = Audit(requestID: requestID, user: user, sink: sink, counters: counters)
            let service = Service(
                requestID: requestID,
                user: user,
                store: Store(connection: connection),
                codes: codes,
                audit: audit,
                counters: counters,
                log: log
            )
            try await audit.dispose()
            return service
        }
    }
}
