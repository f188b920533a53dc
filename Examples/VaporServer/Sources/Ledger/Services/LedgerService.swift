import ObjectionVapor

/// The ledger's business logic for one request: opening accounts, reading them, moving money.
///
/// Transient, built per request from the request's transaction scope (its id, teller, store and
/// ``RequestJournal``). The `/plain` route builds it by hand from the same parts.
public struct LedgerService: Sendable {
    /// The request's id.
    public let requestID: RequestIdentifier
    /// The request's teller.
    public let teller: Teller
    private let store: any AccountStore
    private let journal: RequestJournal

    /// Assembles the service for one request.
    ///
    /// - Parameters:
    ///   - requestID: The request's id.
    ///   - teller: The request's teller.
    ///   - store: Where accounts are kept: the request's transaction.
    ///   - journal: The request's journal.
    public init(requestID: RequestIdentifier, teller: Teller, store: any AccountStore, journal: RequestJournal) {
        self.requestID = requestID
        self.teller = teller
        self.store = store
        self.journal = journal
    }

    /// Opens an account for `owner` with `balance`.
    ///
    /// - Parameters:
    ///   - owner: Who holds the account.
    ///   - balance: The opening balance, in cents; not negative.
    /// - Returns: The new account.
    /// - Throws: The store's errors.
    public func open(owner: String, balance: Int64) async throws -> Account {
        let account = try await store.open(owner: owner, balance: balance, teller: teller.name)
        journal.record("opened \(account.id)")
        return account
    }

    /// The account numbered `id`, or `nil`.
    ///
    /// - Parameter id: The account's number.
    /// - Throws: The store's errors.
    public func account(id: Int64) async throws -> Account? {
        let account = try await store.account(id: id)
        journal.record(account == nil ? "missing \(id)" : "read \(id)")
        return account
    }

    /// Moves `amount` from account `from` to account `to`.
    ///
    /// Changes the two rows in ascending order of their numbers, whichever is debited, so that two
    /// transfers between the same accounts in opposite directions wait for each other rather than
    /// deadlock. The change made first is not undone here when the second fails: the error rolls
    /// the request's transaction back.
    ///
    /// - Parameters:
    ///   - amount: How much, in cents; positive.
    ///   - from: The account to debit.
    ///   - to: Another account, to credit.
    /// - Returns: The recorded transfer.
    /// - Throws: ``TransferError`` when an account is missing or `from` holds too little; the
    ///   store's errors.
    public func transfer(_ amount: Int64, from: Int64, to: Int64) async throws -> Transfer {
        let fromBalance: Int64
        let toBalance: Int64
        if from < to {
            fromBalance = try await debit(amount, from: from)
            toBalance = try await credit(amount, to: to)
        } else {
            toBalance = try await credit(amount, to: to)
            fromBalance = try await debit(amount, from: from)
        }
        let id = try await store.recordTransfer(
            amount, from: from, to: to, teller: teller.name, requestID: requestID.value)
        journal.record("moved \(amount) from \(from) to \(to)")
        return Transfer(id: id, from: from, to: to, amount: amount, fromBalance: fromBalance, toBalance: toBalance)
    }

    private func debit(_ amount: Int64, from id: Int64) async throws -> Int64 {
        if let balance = try await store.debit(amount, from: id) { return balance }
        let exists = try await store.account(id: id) != nil
        throw TransferError(exists ? .insufficientFunds : .unknownAccount, account: id)
    }

    private func credit(_ amount: Int64, to id: Int64) async throws -> Int64 {
        guard let balance = try await store.credit(amount, to: id) else {
            throw TransferError(.unknownAccount, account: id)
        }
        return balance
    }
}
