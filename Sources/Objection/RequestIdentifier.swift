/// The id of one request, for following it through logs and services: one type for every server
/// integration, each settling it as its framework does (Hummingbird's `X-Request-ID`, Vapor's
/// `req.id`, gRPC's `x-request-id` metadata) by one rule, ``init(adopting:)`` — the client's id
/// when it is well-formed, else a new one — and binding it in the request's scope.
///
/// Declare it with ``BindingBuilder/suppliedByScope()``, and a scoped or transient binding can
/// take it as a dependency:
///
/// ```swift
/// binder.bind(RequestIdentifier.self).suppliedByScope()
/// binder.bind(AuditTrail.self).to(AuditTrail.init)   // init(requestID: RequestIdentifier)
/// ```
public struct RequestIdentifier: Sendable, Hashable, CustomStringConvertible {
    /// The id, as it travels in headers and metadata.
    ///
    /// ```swift
    /// let id = try await scope.get(RequestIdentifier.self).value
    /// ```
    public let value: String

    /// Wraps an id, as a test or an upstream service might make it; no check is made.
    ///
    /// ```swift
    /// values.bind(RequestIdentifier.self, to: RequestIdentifier("test-1"))
    /// ```
    ///
    /// - Parameter value: The id.
    public init(_ value: String) {
        self.value = value
    }

    /// The id a client sent, if ``isWellFormed(_:)``; else a new one (``random()``).
    ///
    /// ```swift
    /// RequestIdentifier(adopting: "abc").value       // "abc"
    /// RequestIdentifier(adopting: "bad\nid").value   // a new 32-character id
    /// ```
    ///
    /// - Parameter sent: The id the client sent, if any.
    public init(adopting sent: String?) {
        if let sent, Self.isWellFormed(sent) { self.init(sent) } else { self = .random() }
    }

    /// The longest id a client may send: a longer one is replaced rather than cut, so that two
    /// different ids never share a prefix in the logs.
    ///
    /// ```swift
    /// RequestIdentifier.isWellFormed(String(repeating: "a", count: RequestIdentifier.longestAdopted + 1))   // false
    /// ```
    public static let longestAdopted = 128

    /// Whether an id a client sent may reach logs and headers as is: 1 to ``longestAdopted``
    /// characters, each a letter, a digit, `.`, `_`, `-` or `:`. Anything else (spaces, quotes,
    /// line breaks, non-ASCII) could forge log lines or confuse whoever reads them.
    ///
    /// ```swift
    /// RequestIdentifier.isWellFormed("req-7")        // true
    /// RequestIdentifier.isWellFormed("a\"b")         // false
    /// ```
    ///
    /// - Parameter sent: The id as the client sent it.
    /// - Returns: Whether it may be used unchanged.
    public static func isWellFormed(_ sent: String) -> Bool {
        let bytes = sent.utf8
        guard !bytes.isEmpty, bytes.count <= longestAdopted else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"),
                UInt8(ascii: ":"):
                true
            default:
                false
            }
        }
    }

    /// A new id: 32 lowercase hexadecimal digits, 128 random bits.
    ///
    /// ```swift
    /// let id = RequestIdentifier.random()   // 9f2c41d07a3be8150c77d2e4a1b96f03
    /// ```
    public static func random() -> RequestIdentifier {
        var generator = SystemRandomNumberGenerator()
        return RequestIdentifier(hex(generator.next()) + hex(generator.next()))
    }

    private static func hex(_ number: UInt64) -> String {
        let digits = String(number, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The id itself, as logs and headers print it.
    ///
    /// ```swift
    /// logger.info("forwarding \(id)")   // forwarding 9f2c41d07a3be815
    /// ```
    public var description: String { value }
}
