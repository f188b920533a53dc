import Logging
import PostgresNIO

/// An ``AccountStore`` on one PostgreSQL connection: the request's transaction.
///
/// Scoped: the request's transaction scope builds one, from the `PostgresConnection` it binds as
/// a scope value, so that every query of the request runs in that transaction. The `/plain` route
/// builds one by hand on the connection its own `withTransaction` lends.
public struct PostgresAccountStore: AccountStore {
    private let connection: PostgresConnection
    private let logger: Logger

    /// Creates the store for one transaction.
    ///
    /// - Parameters:
    ///   - connection: The connection, in the transaction, that the queries run on.
    ///   - logger: The request's logger, with its id, for the queries.
    public init(connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    public func open(owner: String, balance: Int64, teller: String) async throws -> Account {
        let id = try await single(
            "INSERT INTO accounts (owner, balance, opened_by) VALUES (\(owner), \(balance), \(teller)) RETURNING id",
            as: Int64.self
        )
        guard let id else { throw NoRowReturned() }
        return Account(id: id, owner: owner, balance: balance)
    }

    public func account(id: Int64) async throws -> Account? {
        let rows = try await connection.query(
            "SELECT owner, balance FROM accounts WHERE id = \(id)", logger: logger
        ).collect()
        guard let row = rows.first else { return nil }
        let (owner, balance) = try row.decode((String, Int64).self)
        return Account(id: id, owner: owner, balance: balance)
    }

    public func debit(_ amount: Int64, from id: Int64) async throws -> Int64? {
        // The row lock this takes holds other transfers from the account until the commit.
        try await single(
            """
            UPDATE accounts SET balance = balance - \(amount)
            WHERE id = \(id) AND balance >= \(amount) RETURNING balance
            """,
            as: Int64.self
        )
    }

    public func credit(_ amount: Int64, to id: Int64) async throws -> Int64? {
        try await single(
            "UPDATE accounts SET balance = balance + \(amount) WHERE id = \(id) RETURNING balance", as: Int64.self)
    }

    public func recordTransfer(
        _ amount: Int64,
        from: Int64,
        to: Int64,
        teller: String,
        requestID: String
    ) async throws -> Int64 {
        let id = try await single(
            """
            INSERT INTO transfers (from_account, to_account, amount, teller, request_id)
            VALUES (\(from), \(to), \(amount), \(teller), \(requestID)) RETURNING id
            """,
            as: Int64.self
        )
        guard let id else { throw NoRowReturned() }
        return id
    }

    /// The first column of the first row `query` returns, or `nil` when it returns none.
    private func single<T: PostgresDecodable>(_ query: PostgresQuery, as type: T.Type) async throws -> T? {
        let rows = try await connection.query(query, logger: logger).collect()
        return try rows.first?.decode(T.self)
    }
}

/// An `INSERT … RETURNING` that returned no row: the database broke its promise.
struct NoRowReturned: Error {}
