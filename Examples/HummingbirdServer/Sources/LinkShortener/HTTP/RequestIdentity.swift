import HTTPTypes
import Hummingbird
import ObjectionHummingbird

/// Who a request is for and how to refer to it: read from its headers, the same way on every
/// route.
public enum RequestIdentity {
    /// The user named in `Authorization: Bearer <name>`.
    ///
    /// A user name is 1 to 64 letters, digits, `.`, `_` or `-`; this example trusts it as is,
    /// where a real service would verify a token.
    ///
    /// - Parameter request: The incoming request.
    /// - Returns: The user.
    /// - Throws: `401 Unauthorized` when the `Authorization` header is missing or malformed.
    public static func user(of request: Request) throws(HTTPError) -> AuthenticatedUser {
        guard let user = user(in: request.headers) else {
            throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: "Bearer"], message: unauthorizedMessage)
        }
        return user
    }

    /// The user named in the `Authorization: Bearer <name>` of `headers`, or `nil` when it is
    /// missing or malformed: for the OpenAPI operations, which answer that with an error of their
    /// runtime's kind.
    ///
    /// - Parameter headers: The request's header fields.
    /// - Returns: The user, or `nil`.
    public static func user(in headers: HTTPFields) -> AuthenticatedUser? {
        guard
            let authorization = headers[.authorization],
            authorization.hasPrefix("Bearer "),
            case let name = String(authorization.dropFirst("Bearer ".count)),
            isToken(name, maxLength: 64, allowingColon: false)
        else { return nil }
        return AuthenticatedUser(name: name)
    }

    /// What a `401` says.
    static let unauthorizedMessage = "Send 'Authorization: Bearer <name>'"

    /// The request's id, settled as `ObjectionScopeMiddleware` would settle it: the client's
    /// `X-Request-ID` when it is 1 to 128 letters, digits, `.`, `_`, `-` or `:`, else the id
    /// Hummingbird gave the request.
    ///
    /// ``RequestIDMiddleware`` settles it once, for every route, and the scope middleware adopts
    /// it: the routes and the responses the scope middleware does not reach need the same id
    /// (the hand-wired route, and the errors ``RequestIDMiddleware`` renders; an `HTTPError`
    /// passes through the scope middleware without its `X-Request-ID`).
    ///
    /// - Parameters:
    ///   - request: The incoming request.
    ///   - context: The request's context, whose logger holds Hummingbird's id.
    /// - Returns: The id.
    public static func requestID(of request: Request, context: some RequestContext) -> RequestIdentifier {
        if let name = HTTPField.Name.requestID, let sent = request.headers[name],
            isToken(sent, maxLength: 128, allowingColon: true)
        {
            return RequestIdentifier(sent)
        }
        return RequestIdentifier(context.id)
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
    static let requestID = HTTPField.Name("X-Request-ID")
}
