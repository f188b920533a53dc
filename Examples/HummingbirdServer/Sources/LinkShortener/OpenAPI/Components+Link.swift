import ObjectionHummingbird

extension Components.Schemas.Link {
    /// `link` as the API's `Link`, with the request's id and user echoed.
    init(_ link: Link, requestID: RequestIdentifier, user: AuthenticatedUser) {
        self.init(code: link.code, url: link.url, owner: link.owner, requestID: requestID.value, user: user.name)
    }
}

extension Components.Schemas.Problem {
    /// The `404` of an unknown code.
    static func noLink(_ code: String) -> Self { .init(message: "No link '\(code)'") }
}
