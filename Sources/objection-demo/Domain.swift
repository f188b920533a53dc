import Objection
import Synchronization

/// Counts how many times each service was constructed, so the demo can show singletons built once.
final class ConstructionLog: Sendable {
    static let shared = ConstructionLog()

    private let counts = Mutex<[String: Int]>([:])

    func record(_ name: String) {
        counts.withLock { $0[name, default: 0] += 1 }
    }

    var snapshot: [String: Int] { counts.withLock { $0 } }
}

struct AppConfig: Sendable {
    let databaseURL: String
    let connectLatency: Duration
}

/// A database client. The real one would hold a connection pool.
protocol Database: Sendable {
    func fetchUser(id: Int) async throws -> User
    func insertOrder(_ order: Order) async throws
}

/// Simulates a slow connect in its async throwing factory, like a real Postgres client.
final class SimulatedPostgres: Database, AsyncDisposable {
    private let orders = Mutex<[Order]>([])

    private init() {}

    static func connect(config: AppConfig) async throws -> SimulatedPostgres {
        ConstructionLog.shared.record("Database")
        try await Task.sleep(for: config.connectLatency)
        return SimulatedPostgres()
    }

    func fetchUser(id: Int) async throws -> User {
        User(id: id, name: "user-\(id)")
    }

    func insertOrder(_ order: Order) async throws {
        orders.withLock { $0.append(order) }
    }

    var orderCount: Int { orders.withLock { $0.count } }

    func dispose() async throws {
        ShutdownLog.shared.record("Database (closed connections)")
    }
}

struct User: Sendable {
    let id: Int
    let name: String
}

struct Order: Sendable {
    let userID: Int
    let amount: Int
}

/// Counts requests; built eagerly at start-up.
final class Metrics: AsyncDisposable {
    private let served = Atomic<Int>(0)

    init() { ConstructionLog.shared.record("Metrics") }

    func recordRequest() { served.add(1, ordering: .relaxed) }

    var requestsServed: Int { served.load(ordering: .relaxed) }

    func dispose() async throws {
        ShutdownLog.shared.record("Metrics (flushed \(requestsServed) requests)")
    }
}

/// What shutdown disposed, in order.
final class ShutdownLog: Sendable {
    static let shared = ShutdownLog()

    private let entries = Mutex<[String]>([])

    func record(_ entry: String) { entries.withLock { $0.append(entry) } }

    var snapshot: [String] { entries.withLock { $0 } }
}

/// The request's identity, bound into each request scope.
struct RequestID: Sendable {
    let value: Int
}

/// A per-request unit of work: scoped, so one per request, committed when the request scope ends.
final class UnitOfWork: AsyncDisposable {
    static let committed = Atomic<Int>(0)

    let request: RequestID

    init(request: RequestID) { self.request = request }

    func dispose() async throws {
        Self.committed.add(1, ordering: .relaxed)
    }
}

final class UserRepository: Sendable {
    let database: any Database

    init(database: any Database) {
        self.database = database
        ConstructionLog.shared.record("UserRepository")
    }

    func user(id: Int) async throws -> User { try await database.fetchUser(id: id) }
}

final class OrderRepository: Sendable {
    let database: any Database

    init(database: any Database) {
        self.database = database
        ConstructionLog.shared.record("OrderRepository")
    }

    func place(_ order: Order) async throws { try await database.insertOrder(order) }
}

/// A request handler: transient, built per request from singletons and the request's scoped values.
struct PlaceOrderHandler: Sendable {
    let users: UserRepository
    let orders: OrderRepository
    let metrics: Metrics
    let work: UnitOfWork

    func handle(amount: Int) async throws -> String {
        metrics.recordRequest()
        let user = try await users.user(id: work.request.value % 100)
        try await orders.place(Order(userID: user.id, amount: amount))
        return "ok \(user.name)"
    }
}

/// Needs a payment gateway that the demo deliberately never binds.
protocol PaymentGateway: Sendable {}

struct CheckoutService: Sendable {
    let orders: OrderService
}

struct OrderService: Sendable {
    let payments: any PaymentGateway
}
