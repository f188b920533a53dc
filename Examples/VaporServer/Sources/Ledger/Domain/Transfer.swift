/// Money moved from one account to another, as the ledger records it.
public struct Transfer: Sendable, Hashable, Codable {
    /// The transfer's number, given by the database.
    public var id: Int64
    /// The account debited.
    public var from: Int64
    /// The account credited.
    public var to: Int64
    /// How much moved, in cents.
    public var amount: Int64
    /// The debited account's balance afterwards.
    public var fromBalance: Int64
    /// The credited account's balance afterwards.
    public var toBalance: Int64

    /// Creates a transfer value.
    ///
    /// - Parameters:
    ///   - id: The transfer's number.
    ///   - from: The account debited.
    ///   - to: The account credited.
    ///   - amount: How much moved, in cents.
    ///   - fromBalance: The debited account's balance afterwards.
    ///   - toBalance: The credited account's balance afterwards.
    public init(id: Int64, from: Int64, to: Int64, amount: Int64, fromBalance: Int64, toBalance: Int64) {
        self.id = id
        self.from = from
        self.to = to
        self.amount = amount
        self.fromBalance = fromBalance
        self.toBalance = toBalance
    }
}
