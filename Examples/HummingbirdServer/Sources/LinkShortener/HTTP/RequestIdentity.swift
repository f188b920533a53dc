import HTTPTypes
import Hummingbird

/// Who a request is for and how to refer to it: read from its headers, the same way on every
/// route.
public struct RequestIdentity: Sendable, Hashable {
    /// The request's id: the client's `X-Request-ID` if it is usable, else a new random id.
    public var requestID: RequestIdentifier
    /// The name in `Authorization: Bearer <name>`.
    public var user: AuthenticatedUser

    /// Reads the identity of `request`, whose id ``RequestIDMiddleware`` has settled in `context`.
    ///
    /// A user name is 1 to 64 letters, digits, `.`, `_` or `-`; this example trusts it as is,
    /// where a real service would verify a token.
    ///
    /// - Parameters:
    ///   - request: The incoming request.
    ///   - context: The request's context, which holds its id.
    /// - Throws: `401 Unauthorized` when the `Authorization` header is missing or malformed.
    public init(of request: Request, context: AppRequestContext) throws(HTTPError) {
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
        self.requestID = context.requestID
    }

    /// The client's `X-Request-ID`, if it is usable: 1 to 128 letters, digits, `.`, `_`, `-` or
    /// `:`. Another value is ignored, so that it never reaches a log or a response.
    ///
    /// - Parameter request: The incoming request.
    /// - Returns: The id, or `nil` when the header is absent or unusable.
    public static func clientRequestID(of request: Request) -> RequestIdentifier? {
        guard let name = HTTPField.Name.requestID, let id = request.headers[name],
            isToken(id, maxLength: 128, allowingColon: true)
        else { return nil }
        return RequestIdentifier(id)
    }

    /// A new random id: 16 lowercase hexadecimal digits.
    public static func newRequestID() -> RequestIdentifier {
        let hex = String(UInt64.random(in: .min ... .max), radix: 16)
        return RequestIdentifier(String(repeating: "0", count: 16 - hex.count) + hex)
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
}

extension HTTPField.Name {
    /// `X-Request-ID`, the de facto header for following one request through logs and services.
    /// The initializer only fails on names that are not tokens, which this one is.
    public static let requestID = HTTPField.Name("X-Request-ID")
}
