import HTTPTypes
import Hummingbird
import Logging
import Objection

extension RequestIdentifier {
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
}

extension HTTPField.Name {
    /// `X-Request-ID`. The initializer fails only for names that are not tokens, which this one is.
    static let requestID = HTTPField.Name("X-Request-ID")
}

extension Logger {
    /// The metadata key the request's id is logged under.
    static let requestIDKey = "request-id"
}
