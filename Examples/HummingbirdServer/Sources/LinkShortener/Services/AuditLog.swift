import NIOConcurrencyHelpers
import Objection

/// What one request did, flushed by its ``RequestAudit`` when the request ends.
public struct AuditRecord: Sendable, Hashable, Codable {
    /// The request's id.
    public var requestID: String
    /// The user the request was made for.
    public var user: String
    /// What the request did, in order.
    public var events: [String]

    /// Creates a record.
    ///
    /// - Parameters:
    ///   - requestID: The request's id.
    ///   - user: The user the request was made for.
    ///   - events: What the request did, in order.
    public init(requestID: String, user: String, events: [String]) {
        self.requestID = requestID
        self.user = user
        self.events = events
    }
}

/// The audit trail of every request: a singleton of the root injector that each request's
/// ``RequestAudit`` flushes into when its scope ends.
///
/// `AsyncDisposable`: the injector disposes it at shutdown; it refuses records afterwards.
public final class AuditLog: AsyncDisposable {
    /// The name under which it appears in the ``LifecycleLog``.
    public static let lifecycleName = "audit-log"

    private struct State {
        var flushed = 0
        /// A ring of the latest records; `oldest` is where the next one overwrites, once it is full.
        var recent: [AuditRecord] = []
        var oldest = 0
        var isClosed = false
    }

    private let state = NIOLockedValueBox(State())
    private let retention: Int
    private let lifecycle: LifecycleLog

    /// Creates an empty trail and records the construction.
    ///
    /// - Parameters:
    ///   - config: Says how many records to keep for ``recentRecords``.
    ///   - lifecycle: Where construction and disposal are recorded.
    public init(config: AppConfig, lifecycle: LifecycleLog) {
        self.retention = max(0, config.auditRetention)
        self.lifecycle = lifecycle
        lifecycle.record(.built(Self.lifecycleName))
    }

    /// Adds a request's record.
    ///
    /// - Parameter record: What the request did.
    /// - Returns: `false` if the log is already disposed; the record is dropped then.
    @discardableResult
    public func append(_ record: AuditRecord) -> Bool {
        state.withLockedValue { state in
            guard !state.isClosed else { return false }
            state.flushed += 1
            if state.recent.count < retention {
                state.recent.append(record)
            } else if retention > 0 {
                state.recent[state.oldest] = record
                state.oldest = (state.oldest + 1) % retention
            }
            return true
        }
    }

    /// How many records have been flushed into the log.
    public var flushedCount: Int {
        state.withLockedValue { $0.flushed }
    }

    /// The latest records, oldest first, at most `AppConfig.auditRetention` of them.
    public var recentRecords: [AuditRecord] {
        state.withLockedValue { state in Array(state.recent[state.oldest...] + state.recent[..<state.oldest]) }
    }

    public func dispose() async throws {
        state.withLockedValue { $0.isClosed = true }
        lifecycle.record(.disposed(Self.lifecycleName))
    }
}
