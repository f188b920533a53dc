import Objection
import Synchronization

/// A request's unit of work: built once per request scope, disposed when the request's scope
/// ends, and told how it ended; it reports both to its ``ScopeLedger``.
///
/// ```swift
/// binder.bind(RequestWork.self)
///     .to { [ledger] r in
///         RequestWork(serial: ledger.nextSerial(), label: try await r.get(RequestIdentifier.self).value, ledger: ledger)
///     }
///     .inScope(.scoped)
/// ```
public final class RequestWork: OutcomeAwareDisposable {
    /// Its serial number in the ledger.
    public let serial: Int
    /// What it was built for: a request's id, an operation's name.
    public let label: String
    private let ledger: ScopeLedger
    private let disposedFlag = Atomic(false)

    /// Creates a unit of work that reports its disposal to `ledger`.
    public init(serial: Int, label: String, ledger: ScopeLedger) {
        self.serial = serial
        self.label = label
        self.ledger = ledger
    }

    /// `alive` until disposed, then `DISPOSED`: what a chunk written after the disposal would read.
    public var state: String { disposedFlag.load(ordering: .acquiring) ? "DISPOSED" : "alive" }

    /// Records the disposal, with the scope's error if it failed.
    public func dispose(after outcome: ScopeOutcome) async throws {
        disposedFlag.store(true, ordering: .releasing)
        ledger.record(.init(serial: serial, label: label, error: outcome.error))
    }
}
