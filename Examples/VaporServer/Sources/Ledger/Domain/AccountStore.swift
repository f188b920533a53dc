/// Where accounts and transfers are kept. The service sees only this protocol; ``AppModule``
/// binds it to ``PostgresAccountStore``, on the request's transaction, and a later module (a
/// test) can bind it to something else.
public protocol AccountStore: Sendable {
    /// Opens an account.
    ///
    /// - Parameters:
    ///   - owner: Who holds it.
    ///   - balance: The opening balance, in cents.
    ///   - teller: Who opened it.
    /// - Returns: The new account.
    /// - Throws: The database's errors.
    func open(owner: String, balance: Int64, teller: String) async throws -> Account

    /// The account numbered `id`, or `nil`.
    ///
    /// - Parameter id: The account's number.
    /// - Throws: The database's errors.
    func account(id: Int64) async throws -> Account?

    /// Takes `amount` from account `id`, unless that would leave it negative.
    ///
    /// - Parameters:
    ///   - amount: How much, in cents.
    ///   - id: The account's number.
    /// - Returns: The balance afterwards, or `nil` if there is no such account or too little in it;
    ///   nothing is changed then.
    /// - Throws: The database's errors.
    func debit(_ amount: Int64, from id: Int64) async throws -> Int64?

    /// Adds `amount` to account `id`.
    ///
    /// - Parameters:
    ///   - amount: How much, in cents.
    ///   - id: The account's number.
    /// - Returns: The balance afterwards, or `nil` if there is no such account.
    /// - Throws: The database's errors.
    func credit(_ amount: Int64, to id: Int64) async throws -> Int64?

    /// Records a transfer that the debit and the credit have made.
    ///
    /// - Parameters:
    ///   - amount: How much moved, in cents.
    ///   - from: The account debited.
    ///   - to: The account credited.
    ///   - teller: Who made it.
    ///   - requestID: The request that made it.
    /// - Returns: The transfer's number.
    /// - Throws: The database's errors.
    func recordTransfer(_ amount: Int64, from: Int64, to: Int64, teller: String, requestID: String) async throws
        -> Int64
}
