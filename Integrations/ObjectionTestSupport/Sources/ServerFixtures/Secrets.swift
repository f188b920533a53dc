/// A type no module binds, whose name must never reach a response.
///
/// ```swift
/// _ = try await scope.get(SecretPaymentGateway.self)  // throws; the client sees an opaque 500
/// ```
public struct SecretPaymentGateway: Sendable {}

/// A type whose provider fails with ``VaultSealedError``, whose name must never reach a response.
///
/// ```swift
/// binder.bind(SealedVault.self).to { _ in throw VaultSealedError() }
/// ```
public struct SealedVault: Sendable {}

/// A provider's error as a driver might describe it: with a connection string and its password.
/// Neither a response nor a log line may carry ``secret``.
///
/// ```swift
/// #expect(logs.all.allSatisfy { !"\($0)".contains(VaultSealedError.secret) })
/// ```
public struct VaultSealedError: Error, CustomStringConvertible {
    /// The password in the description.
    public static let secret = "Tr0ub4dor"

    /// Creates the error.
    public init() {}

    /// The error's type, the vault's host and the password.
    public var description: String { "VaultSealedError: postgres://app:\(Self.secret)&3@vault.internal:8200 is sealed" }
}
