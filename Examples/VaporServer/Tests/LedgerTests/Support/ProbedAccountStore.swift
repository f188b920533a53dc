import Ledger
import Objection
import PostgresNIO
import TestSupport

/// What a ``ProbedAccountStore`` does inside the request's transaction, after the real store's
/// query and on the connection the transaction scope bound: look at what the transaction sees,
/// wait at a ``Gate``, throw.
struct TransactionProbe: Sendable {
    /// Runs once an account is opened, before the commit.
    var afterOpen: @Sendable (Account, PostgresConnection) async throws -> Void = { _, _ in }
    /// Runs once an account is read (found or not), before the commit.
    var afterRead: @Sendable (Int64, PostgresConnection) async throws -> Void = { _, _ in }
    /// Runs once a transfer is recorded, before the commit.
    var afterTransfer: @Sendable (Int64, PostgresConnection) async throws -> Void = { _, _ in }
}

/// An ``AccountStore`` over the transaction's ``PostgresAccountStore`` that runs a
/// ``TransactionProbe`` after some queries: the tests' hook inside the transaction, added by
/// binding, not by the server.
struct ProbedAccountStore: AccountStore {
    let base: PostgresAccountStore
    let connection: PostgresConnection
    let probe: TransactionProbe

    func open(owner: String, balance: Int64, teller: String) async throws -> Account {
        let account = try await base.open(owner: owner, balance: balance, teller: teller)
        try await probe.afterOpen(account, connection)
        return account
    }

    func account(id: Int64) async throws -> Account? {
        let account = try await base.account(id: id)
        try await probe.afterRead(id, connection)
        return account
    }

    func debit(_ amount: Int64, from id: Int64) async throws -> Int64? {
        try await base.debit(amount, from: id)
    }

    func credit(_ amount: Int64, to id: Int64) async throws -> Int64? {
        try await base.credit(amount, to: id)
    }

    func recordTransfer(_ amount: Int64, from: Int64, to: Int64, teller: String, requestID: String) async throws
        -> Int64
    {
        let id = try await base.recordTransfer(amount, from: from, to: to, teller: teller, requestID: requestID)
        try await probe.afterTransfer(id, connection)
        return id
    }
}

/// Overrides the store binding of ``AppModule`` (a later module wins) with a ``ProbedAccountStore``
/// over the transaction scope's own ``PostgresAccountStore`` and connection.
struct ProbeModule: Module {
    let probe: TransactionProbe

    func configure(_ binder: Binder) {
        binder.bind((any AccountStore).self).to { [probe] resolver in
            ProbedAccountStore(
                base: try await resolver.get(PostgresAccountStore.self),
                connection: try await resolver.get(PostgresConnection.self),
                probe: probe
            )
        }
    }

    /// Holds every account opening at `gate`, inside its transaction.
    static func gatingOpenings(at gate: Gate) -> ProbeModule {
        ProbeModule(probe: TransactionProbe(afterOpen: { _, _ in await gate.pass() }))
    }

    /// Holds every read at `gate`, inside its transaction.
    static func gatingReads(at gate: Gate) -> ProbeModule {
        ProbeModule(probe: TransactionProbe(afterRead: { _, _ in await gate.pass() }))
    }
}
