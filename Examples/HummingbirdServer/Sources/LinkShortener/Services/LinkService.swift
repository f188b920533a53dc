import ObjectionHummingbird

/// The service's business logic for one request: shortening and resolving links for its user.
///
/// Transient, built per request from the request's transaction scope (its user, id, store and
/// ``RequestAudit``) and the root's singletons (the code generator, the metrics). The `/plain`
/// route builds it by hand from the same parts.
public struct LinkService: Sendable {
    /// How many fresh codes ``shorten(_:)`` tries before giving up.
    static let maxAttempts = 8

    /// The request's id.
    public let requestID: RequestIdentifier
    /// The request's user.
    public let user: AuthenticatedUser
    private let store: any LinkStore
    private let codes: CodeGenerator
    private let audit: RequestAudit
    private let metrics: Metrics

    /// Assembles the service for one request.
    ///
    /// - Parameters:
    ///   - requestID: The request's id.
    ///   - user: The request's user.
    ///   - store: Where links are kept: the request's transaction.
    ///   - codes: Makes new short codes.
    ///   - audit: The request's audit trail.
    ///   - metrics: Process-wide counters.
    public init(
        requestID: RequestIdentifier,
        user: AuthenticatedUser,
        store: any LinkStore,
        codes: CodeGenerator,
        audit: RequestAudit,
        metrics: Metrics
    ) {
        self.requestID = requestID
        self.user = user
        self.store = store
        self.codes = codes
        self.audit = audit
        self.metrics = metrics
    }

    /// Stores `url` under a new code owned by the request's user.
    ///
    /// - Parameter url: The URL to shorten.
    /// - Returns: The stored link.
    /// - Throws: ``ShortenError`` if no free code was found; the store's errors.
    public func shorten(_ url: String) async throws -> Link {
        for _ in 0..<Self.maxAttempts {
            let link = Link(code: codes.next(), url: url, owner: user.name)
            if try await store.insert(link) {
                audit.record("created \(link.code)")
                metrics.increment(.linksCreated)
                return link
            }
        }
        throw ShortenError()
    }

    /// The link stored under `code`, or `nil`.
    ///
    /// - Parameter code: The short code.
    /// - Throws: The store's errors.
    public func resolve(_ code: String) async throws -> Link? {
        let link = try await store.find(code: code)
        if link != nil {
            audit.record("resolved \(code)")
            metrics.increment(.linksResolved)
        } else {
            audit.record("missing \(code)")
            metrics.increment(.linksMissing)
        }
        return link
    }
}

/// Thrown when ``LinkService/shorten(_:)`` finds no free code.
public struct ShortenError: Error, Sendable {}
