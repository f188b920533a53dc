import Hummingbird

/// The request context of every route: Hummingbird's own, plus the request's id.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The request's id, echoed in the `X-Request-ID` header of its response.
    ///
    /// A new id when the context is made; ``RequestIDMiddleware`` replaces it with the client's
    /// `X-Request-ID` when that is usable.
    public var requestID: RequestIdentifier

    /// Creates the context of one request; Hummingbird calls this.
    ///
    /// - Parameter source: The channel and logger of the request.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.requestID = RequestIdentity.newRequestID()
    }
}
