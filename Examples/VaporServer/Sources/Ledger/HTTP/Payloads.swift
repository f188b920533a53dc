import ObjectionVapor
import Vapor

/// The body of `POST /accounts`.
public struct OpenAccountRequest: Content, Sendable {
    /// Who holds the account: 1 to 200 characters.
    public var owner: String
    /// The opening balance, in cents: 0 up to `AppConfig.maxAmount`.
    public var balance: Int64

    /// Creates a body.
    ///
    /// - Parameters:
    ///   - owner: Who holds the account.
    ///   - balance: The opening balance, in cents.
    public init(owner: String, balance: Int64) {
        self.owner = owner
        self.balance = balance
    }
}

/// The body of `POST /transfers`.
public struct TransferRequest: Content, Sendable {
    /// The account to debit.
    public var from: Int64
    /// Another account, to credit.
    public var to: Int64
    /// How much, in cents: 1 up to `AppConfig.maxAmount`.
    public var amount: Int64

    /// Creates a body.
    ///
    /// - Parameters:
    ///   - from: The account to debit.
    ///   - to: The account to credit.
    ///   - amount: How much, in cents.
    public init(from: Int64, to: Int64, amount: Int64) {
        self.from = from
        self.to = to
        self.amount = amount
    }
}

/// An account as the API returns it, with the request that asked for it echoed back.
public struct AccountResponse: Content, Sendable, Hashable {
    /// The account's number.
    public var id: Int64
    /// Who holds it.
    public var owner: String
    /// Its balance, in cents.
    public var balance: Int64
    /// The id of the request that produced this response.
    public var requestID: String
    /// The teller the request acted for.
    public var teller: String

    /// Describes `account` for the request identified by `requestID` and `teller`.
    ///
    /// - Parameters:
    ///   - account: The account.
    ///   - requestID: The request's id.
    ///   - teller: The request's teller.
    public init(_ account: Account, requestID: RequestIdentifier, teller: Teller) {
        self.id = account.id
        self.owner = account.owner
        self.balance = account.balance
        self.requestID = requestID.value
        self.teller = teller.name
    }
}

/// A transfer as the API returns it, with the request that made it echoed back.
public struct TransferResponse: Content, Sendable, Hashable {
    /// The transfer, with both balances afterwards.
    public var transfer: Transfer
    /// The id of the request that made it.
    public var requestID: String
    /// The teller the request acted for.
    public var teller: String

    /// Describes `transfer` for the request identified by `requestID` and `teller`.
    ///
    /// - Parameters:
    ///   - transfer: The transfer.
    ///   - requestID: The request's id.
    ///   - teller: The request's teller.
    public init(_ transfer: Transfer, requestID: RequestIdentifier, teller: Teller) {
        self.transfer = transfer
        self.requestID = requestID.value
        self.teller = teller.name
    }
}

/// The body of `GET /stats`: what the singletons have counted.
public struct StatsResponse: Content, Sendable, Hashable {
    /// How many times each singleton was built (the injector builds each once).
    public var singletonBuilds: [String: Int]
    /// How many journal entries were written by requests whose work succeeded.
    public var succeeded: Int
    /// How many journal entries were written by requests whose work failed (rolled back).
    public var failed: Int
    /// How many accounts are open (committed).
    public var accounts: Int
}
