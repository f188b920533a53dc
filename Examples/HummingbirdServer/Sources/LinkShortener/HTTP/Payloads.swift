import Hummingbird
import ObjectionHummingbird

/// The body of `POST /links`.
public struct CreateLinkRequest: Sendable, Codable {
    /// The URL to shorten: `http` or `https`.
    public var url: String

    /// Creates a body.
    ///
    /// - Parameter url: The URL to shorten.
    public init(url: String) {
        self.url = url
    }
}

/// A link as the API returns it, with the request that asked for it echoed back.
public struct LinkResponse: ResponseCodable, Sendable, Hashable {
    /// The short code.
    public var code: String
    /// The URL it expands to.
    public var url: String
    /// The user who created the link.
    public var owner: String
    /// The id of the request that produced this response.
    public var requestID: String
    /// The user the request was made for.
    public var user: String

    /// Describes `link` for the request identified by `requestID` and `user`.
    ///
    /// - Parameters:
    ///   - link: The link.
    ///   - requestID: The request's id.
    ///   - user: The request's user.
    public init(_ link: Link, requestID: RequestIdentifier, user: AuthenticatedUser) {
        self.code = link.code
        self.url = link.url
        self.owner = link.owner
        self.requestID = requestID.value
        self.user = user.name
    }
}

/// The body of `GET /stats`: what the singletons have counted.
public struct StatsResponse: ResponseCodable, Sendable, Hashable {
    /// How many times each singleton was built (the injector builds each once).
    public var singletonBuilds: [String: Int]
    /// The ``Metrics`` counters, by name.
    public var counters: [String: Int]
    /// How many request audits were flushed: one per ended request scope, and one per `/plain`
    /// request.
    public var auditsFlushed: Int
    /// How many links are stored (committed).
    public var links: Int
}
