import HTTPTypes
import Hummingbird
import Logging
import Objection

extension RequestIdentifier {
    /// The longest client id adopted; longer ones are ignored rather than cut, so that two
    /// different ids never share a prefix in the logs.
    static let maxClientLength = 128

    /// The id of `request`: the client's, when well-formed, else Hummingbird's, else a new one.
    static func settle(for request: Request, logger: Logger) -> RequestIdentifier {
        if let sent = onlyRequestIDField(of: request), isWellFormed(sent) {
            return RequestIdentifier(sent)
        }
        if let assigned = logger[metadataKey: "hb.request.id"] {
            return RequestIdentifier(assigned.description)
        }
        return random()
    }

    /// The value of the request's one `X-Request-ID` field; `nil` without one, or with several
    /// (whose values `HTTPFields` would join with ", ", which is not well-formed either). One walk
    /// over the fields, without the joined copy `headers[name]` makes.
    static func onlyRequestIDField(of request: Request) -> String? {
        guard let name = HTTPField.Name.requestID else { return nil }
        var found: String?
        for field in request.headers where field.name == name {
            guard found == nil else { return nil }
            found = field.value
        }
        return found
    }

    /// A new id: 16 lowercase hexadecimal digits.
    static func random() -> RequestIdentifier {
        let hex = String(UInt64.random(in: .min ... .max), radix: 16)
        return RequestIdentifier(String(repeating: "0", count: 16 - hex.count) + hex)
    }

    /// Whether a client's id may reach logs and headers as is: anything else (spaces, quotes, line
    /// breaks, non-ASCII) could forge log lines or confuse whoever reads them.
    static func isWellFormed(_ id: String) -> Bool {
        let bytes = id.utf8
        guard !bytes.isEmpty, bytes.count <= maxClientLength else { return false }
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
}

extension HTTPField.Name {
    /// `X-Request-ID`. The initializer fails only for names that are not tokens, which this one is.
    static let requestID = HTTPField.Name("X-Request-ID")
}

extension Logger {
    /// The metadata key the request's id is logged under.
    static let requestIDKey = "request-id"
}
