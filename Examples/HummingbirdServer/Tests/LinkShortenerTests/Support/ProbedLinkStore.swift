import LinkShortener
import Objection
import PostgresNIO
import TestSupport

/// What a ``ProbedLinkStore`` does inside the request's transaction, after the real store's
/// query and on the same connection: count what the transaction sees, wait at a ``Gate``, throw.
struct TransactionProbe: Sendable {
    /// Runs once a link is inserted, before the commit.
    var afterInsert: @Sendable (Link, PostgresConnection) async throws -> Void = { _, _ in }
    /// Runs once a code is looked up, before the commit.
    var afterFind: @Sendable (String, PostgresConnection) async throws -> Void = { _, _ in }
}

/// A ``LinkStore`` over the transaction's ``PostgresLinkStore`` that runs a ``TransactionProbe``
/// after each query: the tests' hook inside the transaction, added by binding, not by the server.
struct ProbedLinkStore: LinkStore {
    let base: PostgresLinkStore
    let connection: PostgresConnection
    let probe: TransactionProbe

    func insert(_ link: Link) async throws -> Bool {
        let inserted = try await base.insert(link)
        if inserted { try await probe.afterInsert(link, connection) }
        return inserted
    }

    func find(code: String) async throws -> Link? {
        let link = try await base.find(code: code)
        try await probe.afterFind(code, connection)
        return link
    }
}

/// Overrides the store binding of ``AppModule`` (a later module wins) with a ``ProbedLinkStore``
/// over the transaction scope's own ``PostgresLinkStore`` and connection.
struct ProbeModule: Module {
    let probe: TransactionProbe

    func configure(_ binder: Binder) {
        binder.bind((any LinkStore).self).to { [probe] resolver in
            ProbedLinkStore(
                base: try await resolver.get(PostgresLinkStore.self),
                connection: try await resolver.get(PostgresConnection.self),
                probe: probe
            )
        }
    }
}

extension ProbeModule {
    /// Holds every look-up at `gate`, inside its transaction.
    static func gatingLookups(at gate: Gate) -> ProbeModule {
        ProbeModule(probe: TransactionProbe(afterFind: { _, _ in await gate.pass() }))
    }

    /// Holds every insertion at `gate`, inside its transaction.
    static func gatingInsertions(at gate: Gate) -> ProbeModule {
        ProbeModule(probe: TransactionProbe(afterInsert: { _, _ in await gate.pass() }))
    }
}
