import Objection
import ObjectionVapor
import Synchronization

/// One request's journal: a scoped object, one per scope that resolves it.
///
/// Every service of the scope shares the one instance. When the scope ends the injector disposes
/// it, telling it how the scope's work ended, and it writes its entry into the ``Journal``. The
/// scoped routes resolve it in the request's transaction scope, so it is written before the
/// transaction commits or rolls back, and knows which.
public final class RequestJournal: OutcomeAwareDisposable {
    /// The id of the request.
    public let requestID: RequestIdentifier
    /// The teller the request acts for.
    public let teller: Teller
    private let journal: Journal
    private let events = Mutex<[String]>([])

    /// Opens the journal of one request.
    ///
    /// - Parameters:
    ///   - requestID: The request's id.
    ///   - teller: The request's teller.
    ///   - journal: Where the entry is written when the request ends.
    public init(requestID: RequestIdentifier, teller: Teller, journal: Journal) {
        self.requestID = requestID
        self.teller = teller
        self.journal = journal
    }

    /// Notes something the request did.
    ///
    /// - Parameter event: A short description.
    public func record(_ event: String) {
        events.withLock { $0.append(event) }
    }

    public func dispose(after outcome: ScopeOutcome) async throws {
        let events = events.withLock { $0 }
        journal.append(
            JournalEntry(requestID: requestID.value, teller: teller.name, events: events, succeeded: outcome.isSuccess))
    }
}
