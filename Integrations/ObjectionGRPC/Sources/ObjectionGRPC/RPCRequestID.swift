// Re-exported: the request id and the injector are this module's vocabulary too, so that a file
// importing only the integration can use them, `MemberImportVisibility` on or off.
@_exported import Objection

/// The id of one RPC (``Objection/RequestIdentifier``, one type for every integration): the
/// caller's `x-request-id` metadata when it sent a usable one, else a new one.
/// ``ObjectionScopeInterceptor`` binds it in each RPC's scope and sends it back in the response's
/// initial metadata.
///
/// ```swift
/// binder.bind(RPCRequestID.self).suppliedByScope()
/// let id = try await InjectorActor.currentScope?.get(RPCRequestID.self)
/// ```
public typealias RPCRequestID = RequestIdentifier

extension RequestIdentifier {
    /// The metadata key an RPC's id travels under, both ways.
    ///
    /// ```swift
    /// metadata.replaceOrAddString(id.value, forKey: RPCRequestID.metadataKey)
    /// ```
    public static let metadataKey = "x-request-id"

    /// The caller's id if `sent` is usable — 1 to 128 printable ASCII characters, so that a log
    /// line cannot be forged with it — else a new random one.
    ///
    /// ```swift
    /// RPCRequestID(adopting: "abc").value          // "abc"
    /// RPCRequestID(adopting: "bad\nid").value      // a new 32-character id
    /// ```
    ///
    /// - Parameter sent: The `x-request-id` the caller sent, if any.
    public init(adopting sent: String?) {
        if let sent, !sent.isEmpty, sent.utf8.count <= 128, sent.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) {
            self.init(sent)
        } else {
            var generator = SystemRandomNumberGenerator()
            let high = generator.next() as UInt64
            let low = generator.next() as UInt64
            self.init(Self.hex(high) + Self.hex(low))
        }
    }

    private static func hex(_ number: UInt64) -> String {
        let digits = String(number, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
