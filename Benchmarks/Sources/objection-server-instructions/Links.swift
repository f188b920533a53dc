import Logging
import Objection
import Synchronization

/// A stored link: what `GET /links/:code` answers with.
struct Link: Sendable, Equatable {
    let code: String
    let url: String
}

/// The caller, from the request's `Authorization: Bearer <name>`.
struct User: Sendable {
    let name: String

    /// The bearer's name, or `nil` without a bearer.
    ///
    /// ```swift
    /// User(authorization: "Bearer ada")?.name   // "ada"
    /// ```
    init?(authorization: String?) {
        // By UTF-8 code units: `String.count` and `dropFirst` walk grapheme clusters.
        let prefix = "Bearer ".utf8
        guard let bytes = authorization?.utf8, bytes.count > prefix.count, bytes.starts(with: prefix) else {
            return nil
        }
        name = String(decoding: bytes.dropFirst(prefix.count), as: UTF8.self)
    }
}

/// The in-memory stand-in for the example's PostgreSQL database: a table of links, and a count of
/// the transactions that committed. A singleton in the scoped route, built by hand in its twin.
final class LinkTable: Sendable {
    private let links: Mutex<[String: Link]>
    private let committed = Mutex(0)

    /// A table holding `links`.
    init(_ links: [Link]) {
        self.links = Mutex(Dictionary(uniqueKeysWithValues: links.map { ($0.code, $0) }))
    }

    /// Runs `work` in a transaction, which commits when `work` returns, as postgres-nio's
    /// `withTransaction` does.
    nonisolated(nonsending) func withTransaction<T>(
        _ work: nonisolated(nonsending) (LinkTransaction) async throws -> T
    ) async throws -> T {
        let result = try await work(LinkTransaction(table: self))
        committed.withLock { $0 += 1 }
        return result
    }

    /// The link stored under `code`, or `nil`.
    func find(_ code: String) -> Link? {
        links.withLock { $0[code] }
    }

    /// How many transactions committed.
    var commits: Int { committed.withLock { $0 } }
}

/// A transaction's handle: what the example's transaction scope binds as its `PostgresConnection`.
struct LinkTransaction: Sendable {
    let table: LinkTable
}

/// The store on one transaction: scoped, as the example's `PostgresLinkStore`.
struct TransactionStore: Sendable {
    let transaction: LinkTransaction

    /// The link stored under `code`, or `nil`.
    func find(code: String) -> Link? {
        transaction.table.find(code)
    }
}

/// Where finished audit trails go: a singleton, counting what it was given.
final class AuditLog: Sendable {
    private let flushed = Mutex(0)

    /// Appends one request's trail.
    func append(_ events: [String]) {
        flushed.withLock { $0 += events.count }
    }

    /// How many events were flushed.
    var count: Int { flushed.withLock { $0 } }
}

/// One audit trail per scope, flushed to the ``AuditLog`` when the scope ends, as the example's
/// `RequestAudit` is.
final class RequestAudit: AsyncDisposable {
    let requestID: RequestIdentifier
    private let sink: AuditLog
    private let events = Mutex<[String]>([])

    init(requestID: RequestIdentifier, sink: AuditLog) {
        self.requestID = requestID
        self.sink = sink
    }

    /// Adds `event` to the trail.
    func record(_ event: String) {
        events.withLock { $0.append(event) }
    }

    func dispose() async throws {
        sink.append(events.withLock { $0 })
    }
}

/// The handlers' service: new for each `get`, on its scope's store and audit trail.
struct LinkService: Sendable {
    let requestID: RequestIdentifier
    let user: User
    let store: TransactionStore
    let audit: RequestAudit
    let logger: Logger

    /// The link under `code`, audited.
    func resolve(_ code: String) -> Link? {
        let link = store.find(code: code)
        audit.record(link == nil ? "missing \(code)" : "resolved \(code)")
        return link
    }
}
