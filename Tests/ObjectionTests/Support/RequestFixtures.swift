@testable import Objection

// A request's objects, as an application's handler would need them: a handler that needs a
// journal, which needs a ledger. Bound in a request scope, or as transients, as each test needs.

/// A disposable instance with nothing to release: its disposal succeeds, and is counted.
final class Ledger: AsyncDisposable {
    let disposals = Counter()

    init() {}

    func dispose() async throws { disposals.increment() }
}

/// Needs the ledger; knows whether it was built without a resolution step of its own, on the
/// synchronous path, which an observer must not turn off.
final class Journal: Sendable {
    let builtSynchronously: Bool
    init(ledger: Ledger) { builtSynchronously = ResolutionFrame.current == nil }
}

/// Needs the journal.
final class Handler: Sendable {
    let journal: Journal
    init(journal: Journal) { self.journal = journal }
}

/// A request's audit, built from the request's id: it needs a value the scope supplies.
final class Audit: Sendable {
    let requestID: RequestID
    init(requestID: RequestID) { self.requestID = requestID }
}

/// A request's session: scoped, built from the request's id and the database singleton.
final class Session: Sendable {
    let requestID: RequestID
    let database: any Database
    init(requestID: RequestID, database: any Database) {
        self.requestID = requestID
        self.database = database
    }
}

/// Needs the session: a transient.
final class Repository: Sendable {
    let session: Session
    init(session: Session) { self.session = session }
}

/// A request's handler: a transient, built from the request's id, its session and a repository.
final class RequestHandler: Sendable {
    let requestID: RequestID
    let session: Session
    let repository: Repository
    init(requestID: RequestID, session: Session, repository: Repository) {
        self.requestID = requestID
        self.session = session
        self.repository = repository
    }
}
