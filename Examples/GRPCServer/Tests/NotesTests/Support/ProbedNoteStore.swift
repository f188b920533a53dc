import NotesAPI
import Objection
import PostgresNIO
import Synchronization
import TestSupport

@testable import Notes

/// What a ``ProbedNoteStore`` does inside the RPC's transaction, on the same connection, after
/// the real store's work: wait at a ``Gate``, throw.
struct TransactionProbe: Sendable {
    /// Runs once a note is inserted, before the commit, with the transaction's connection.
    var afterInsert: @Sendable (Note, PostgresConnection) async throws -> Void = { _, _ in }
}

/// What the probed stores did, in order, across RPCs.
final class ProbeLog: Sendable {
    enum Event: Sendable, Equatable {
        /// Store `store`, in the transaction `transaction`, handed the note to the RPC, which
        /// wrote it as a message; `alive` says the store was not yet disposed.
        case served(store: Int, note: Int64, alive: Bool, transaction: Int64)
        /// The note was handed to grpc-swift, to be written as a message of the response.
        case wrote(note: Int64)
        /// Store `store` was disposed after its scope's body ended, `succeeded` or not; its
        /// transaction was then still `transaction` (`0` when not read, after a failure).
        case disposed(store: Int, succeeded: Bool, transaction: Int64)
    }

    private let state = Mutex<(events: [Event], stores: Int)>(([], 0))

    func record(_ event: Event) { state.withLock { $0.events.append(event) } }

    /// A new store's number, from 1.
    func nextStore() -> Int {
        state.withLock {
            $0.stores += 1
            return $0.stores
        }
    }

    var events: [Event] { state.withLock { $0.events } }

    /// How many stores were built.
    var stores: Int { state.withLock { $0.stores } }

    /// The disposals, in order.
    var disposals: [Event] {
        events.filter { if case .disposed = $0 { true } else { false } }
    }
}

/// A ``NoteStore`` over the transaction's ``PostgresNoteStore`` that records what it serves and
/// when it is disposed, and runs a ``TransactionProbe``: the tests' hook inside the transaction,
/// added by binding, not by the server.
final class ProbedNoteStore: NoteStore {
    let number: Int
    let base: PostgresNoteStore
    let connection: PostgresConnection
    /// The transaction the store was built in.
    let transaction: Int64
    let probe: TransactionProbe
    let log: ProbeLog
    let lifecycle: LifecycleLog
    private let disposal = DisposalProbe()

    init(
        base: PostgresNoteStore, connection: PostgresConnection, probe: TransactionProbe, log: ProbeLog,
        lifecycle: LifecycleLog
    ) async throws {
        self.number = log.nextStore()
        self.base = base
        self.connection = connection
        self.transaction = try await connection.transactionID()
        self.probe = probe
        self.log = log
        self.lifecycle = lifecycle
    }

    func insert(text: String, requestID: String) async throws -> Note {
        let note = try await base.insert(text: text, requestID: requestID)
        try await probe.afterInsert(note, connection)
        return note
    }

    func find(id: Int64) async throws -> Note? {
        try await base.find(id: id)
    }

    func list(afterID: Int64, limit: Int, _ each: (Note) async throws -> Void) async throws {
        try await base.list(afterID: afterID, limit: limit) { note in
            try await each(note)
            log.record(
                .served(store: number, note: note.id, alive: disposal.read() == "alive", transaction: transaction))
        }
    }

    /// Records the disposal; after a success, with the transaction it is still in (the rows are
    /// read to the end then, so the connection takes another query).
    func dispose(after outcome: ScopeOutcome) async throws {
        disposal.dispose()
        let transaction = outcome.isSuccess ? try await connection.transactionID() : 0
        log.record(.disposed(store: number, succeeded: outcome.isSuccess, transaction: transaction))
        lifecycle.record(.disposed("note-store \(number)"))
    }
}

/// Overrides the store binding of `AppModule` (a later module wins) with a ``ProbedNoteStore``,
/// one per transaction scope, over that scope's own ``PostgresNoteStore`` and connection.
struct ProbeModule: Module {
    var probe = TransactionProbe()
    let log: ProbeLog

    func configure(_ binder: Binder) {
        binder.bind((any NoteStore).self)
            .to { [probe, log] resolver in
                try await ProbedNoteStore(
                    base: resolver.get(PostgresNoteStore.self), connection: resolver.get(PostgresConnection.self),
                    probe: probe, log: log, lifecycle: resolver.get(LifecycleLog.self))
            }
            .inScope(.scoped)
            .onDispose { store, outcome in try await (store as? ProbedNoteStore)?.dispose(after: outcome) }
    }
}
