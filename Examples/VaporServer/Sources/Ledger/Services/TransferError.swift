/// Why ``LedgerService/transfer(_:from:to:)`` moved nothing. Thrown inside the request's
/// transaction, it rolls back whatever the transfer had already changed.
public struct TransferError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong; compared by this.
    public struct Code: Sendable, Hashable {
        private let name: String

        /// An account of the transfer does not exist.
        public static let unknownAccount = Code(name: "unknownAccount")
        /// The debited account holds less than the amount.
        public static let insufficientFunds = Code(name: "insufficientFunds")
    }

    /// What went wrong.
    public var code: Code
    /// The account at fault.
    public var account: Int64

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - account: The account at fault.
    public init(_ code: Code, account: Int64) {
        self.code = code
        self.account = account
    }

    public var description: String {
        switch code {
        case .unknownAccount: "No account \(account)"
        default: "Account \(account) holds too little"
        }
    }
}
