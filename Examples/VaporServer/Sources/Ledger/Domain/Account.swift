/// An account and its balance.
public struct Account: Sendable, Hashable, Codable {
    /// The account's number, given by the database.
    public var id: Int64
    /// Who holds the account.
    public var owner: String
    /// The balance, in cents; never negative.
    public var balance: Int64

    /// Creates an account value.
    ///
    /// - Parameters:
    ///   - id: The account's number.
    ///   - owner: Who holds it.
    ///   - balance: The balance, in cents.
    public init(id: Int64, owner: String, balance: Int64) {
        self.id = id
        self.owner = owner
        self.balance = balance
    }
}
