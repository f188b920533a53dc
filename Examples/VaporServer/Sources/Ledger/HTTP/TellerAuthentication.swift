import Vapor

/// Who a request acts for: the same rule on every route, scoped or hand-wired.
enum TellerAuthentication {
    /// The teller named in `Authorization: Bearer <name>`.
    ///
    /// A name is 1 to 64 letters, digits, `.`, `_` or `-`; this example trusts it as is, where a
    /// real service would verify a token.
    ///
    /// - Parameter request: The incoming request.
    /// - Returns: The teller.
    /// - Throws: `Abort(.unauthorized)`, with `WWW-Authenticate: Bearer`, when the header is
    ///   missing or malformed.
    static func teller(of request: Request) throws -> Teller {
        guard let name = request.headers.bearerAuthorization?.token, isName(name) else {
            throw Abort(
                .unauthorized, headers: ["WWW-Authenticate": "Bearer"], reason: "Send 'Authorization: Bearer <name>'")
        }
        return Teller(name: name)
    }

    private static func isName(_ name: String) -> Bool {
        let bytes = name.utf8
        guard !bytes.isEmpty, bytes.count <= 64 else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }
}
