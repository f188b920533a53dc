/// The id of one RPC: the caller's `x-request-id` metadata when it sent a usable one, else a new
/// one. ``ObjectionScopeInterceptor`` binds it in each RPC's scope and sends it back in the
/// response's initial metadata.
///
/// ```swift
/// binder.bind(RPCRequestID.self).suppliedByScope()
/// let id = try await InjectorActor.currentScope?.get(RPCRequestID.self)
/// ```
public struct RPCRequestID: Sendable, Hashable, CustomStringConvertible {
    /// The metadata key the id travels under, both ways.
    public static let metadataKey = "x-request-id"

    /// The id's text: at most 128 printable ASCII characters.
    public let value: String

    /// An id with the given text.
    ///
    /// ```swift
    /// let id = RPCRequestID("checkout-42")
    /// ```
    public init(_ value: String) {
        self.value = value
    }

    /// The caller's id if `sent` is usable — 1 to 128 printable ASCII characters, so that a log
    /// line cannot be forged with it — else a new random one.
    ///
    /// ```swift
    /// RPCRequestID(adopting: "abc").value          // "abc"
    /// RPCRequestID(adopting: "bad\nid").value      // a new 32-character id
    /// ```
    public init(adopting sent: String?) {
        if let sent, !sent.isEmpty, sent.utf8.count <= 128, sent.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) {
            value = sent
        } else {
            var generator = SystemRandomNumberGenerator()
            let high = generator.next() as UInt64
            let low = generator.next() as UInt64
            value = Self.hex(high) + Self.hex(low)
        }
    }

    /// The id's text.
    public var description: String { value }

    private static func hex(_ number: UInt64) -> String {
        let digits = String(number, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
