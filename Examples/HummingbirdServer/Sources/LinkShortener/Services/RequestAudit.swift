import NIOConcurrencyHelpers
import Objection
import ObjectionHummingbird

/// One request's audit trail: a scoped object, one per request scope.
///
/// Every service the request resolves shares the one instance of its scope. When the scope ends
/// the injector disposes it, and ``dispose()`` flushes the trail into the ``AuditLog``. The
/// `/links` routes resolve it in the request's transaction scope, so it is flushed before the
/// transaction commits.
public final class RequestAudit: AsyncDisposable {
    /// The id of the request being audited.
    public let requestID: RequestIdentifier
    /// The user the request is made for.
    public let user: AuthenticatedUser
    private let sink: AuditLog
    private let events = NIOLockedValueBox<[String]>([])

    /// Opens a trail for one request.
    ///
    /// - Parameters:
    ///   - requestID: The request's id.
    ///   - user: The request's user.
    ///   - sink: Where the trail is flushed when the request ends.
    ///   - metrics: Counts opened trails.
    public init(requestID: RequestIdentifier, user: AuthenticatedUser, sink: AuditLog, metrics: Metrics) {
        self.requestID = requestID
        self.user = user
        self.sink = sink
        metrics.increment(.auditsOpened)
    }

    /// Notes something the request did.
    ///
    /// - Parameter event: A short description.
    public func record(_ event: String) {
        events.withLockedValue { $0.append(event) }
    }

    public func dispose() async throws {
        let trail = events.withLockedValue { $0 }
        sink.append(AuditRecord(requestID: requestID.value, user: user.name, events: trail))
    }
}
