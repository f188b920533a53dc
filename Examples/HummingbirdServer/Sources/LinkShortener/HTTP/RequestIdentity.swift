import HTTPTypes
import Hummingbird

/// Who a request is for and how to refer to it: read from its headers, the same way on every
/// route.
public struct RequestIdentity: Sendable, Hashable {
    /// The client's `X-Request-ID` if it is usable, else a new random id.
    public var requestID: RequestIdentifier
    /// The name in `Authorization: Bearer <name>`.
    public var user: AuthenticatedUser

    /// Reads the identity of `request`.
    ///
    /// A user name is 1 to 64 letters, digits, `.`, `_` or `-`; this example trusts it as is,
    /// where a real service would verify a token. A request id is 1 to 128 of those characters or
    /// `:`; another value is replaced by a new id.
    ///
    /// - Parameter request: The incoming request.
    /// - Throws: `401 Unauthorized` when the `Authorization` header is missing or malformed.
    public init(of request: Request) throws(HTTPError) {
        guard
            let authorization = request.headers[.authorization],
            authorization.hasPrefix("Bearer "),
            case let name = String(authorization.dropFirst("Bearer ".count)),
            Self.isToken(name, maxLength: 64, allowingColon: false)
        else {
            throw HTTPError(
                .unauthorized,
                headers: [.wwwAuthenticate: "Bearer"],
                message: "Send 'Authorization: Bearer <name>'"
            )
        }
        self.user = AuthenticatedUser(name: name)
        if let name = HTTPField.Name.requestID, let id = request.headers[name],
            Self.isToken(id, maxLength: 128, allowingColon: true)
        {
            self.requestID = RequestIdentifier(id)
        } else {
            self.requestID = Self.newRequestID()
        }
    }

    /// Sets the `X-Request-ID` header of `response` to this request's id.
    ///
    /// - Parameter response: The response to tag.
    public func tag(_ response: inout Response) {
        if let name = HTTPField.Name.requestID { response.headers[name] = requestID.value }
    }

    private static func isToken(_ value: String, maxLength: Int, allowingColon: Bool) -> Bool {
        let bytes = value.utf8
        guard !bytes.isEmpty, bytes.count <= maxLength else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            case UInt8(ascii: ":"):
                allowingColon
            default:
                false
            }
        }
    }

    private static func newRequestID() -> RequestIdentifier {
        let hex = String(UInt64.random(in: .min ... .max), radix: 16)
        return RequestIdentifier(String(repeating: "0", count: 16 - hex.count) + hex)
    }
}

extension HTTPField.Name {
    /// `X-Request-ID`, the de facto header for following one request through logs and services.
    /// The initializer only fails on names that are not tokens, which this one is.
    public static let requestID = HTTPField.Name("X-Request-ID")
}
