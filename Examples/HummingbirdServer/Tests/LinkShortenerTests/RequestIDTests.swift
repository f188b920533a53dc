import LinkShortener
import PostgresNIO
import PostgresTestSupport
import Testing

/// Every response carries `X-Request-ID` — successes, refusals and errors alike, on every route.
@Suite("Request ids", .timeLimit(.minutes(2)))
struct RequestIDTests {
    /// One request and the status it gets.
    struct Exchange: Sendable, CustomTestStringConvertible {
        var verb: Verb = .get
        var path: String
        var user: String?
        var body: String?
        var status: Int

        var testDescription: String { "\(verb) \(path) as \(user ?? "nobody") -> \(status)" }
    }

    static let exchanges: [Exchange] = [
        Exchange(path: "/links/nosuchcode", status: 401),
        Exchange(path: "/plain/links/nosuchcode", status: 401),
        Exchange(verb: .post, path: "/links", body: #"{"url":"https://swift.org"}"#, status: 401),
        Exchange(path: "/links/nosuchcode", user: "ann", status: 404),
        Exchange(path: "/plain/links/nosuchcode", user: "ann", status: 404),
        Exchange(path: "/no/such/route", status: 404),
        Exchange(verb: .post, path: "/links", user: "ann", body: #"{"url":"ftp://swift.org"}"#, status: 400),
        Exchange(verb: .post, path: "/links", user: "ann", body: #"{"url":"https://swift.org/id"}"#, status: 201),
        Exchange(path: "/stats", status: 200),
    ]

    /// A usable client id, one that is not (a space), and none at all.
    static let sentIDs: [String?] = ["client-id:1", "not usable", nil]

    @Test("Every response echoes a usable X-Request-ID, or carries a new one", arguments: exchanges)
    func everyResponseCarriesTheID(exchange: Exchange) async throws {
        try await TestServer.with { server in
            for sent in Self.sentIDs {
                let reply = try await server.send(
                    exchange.verb, exchange.path, user: exchange.user, requestID: sent, body: exchange.body)
                #expect(reply.status == exchange.status, "X-Request-ID: \(sent ?? "none")")
                if sent == "client-id:1" {
                    #expect(reply.requestID == "client-id:1")
                } else {
                    #expect(reply.requestID.map(Self.isNewID) == true, "X-Request-ID: \(sent ?? "none")")
                }
            }
        }
    }

    @Test("A database error gives an opaque 500 with the request id", arguments: ["/links/", "/plain/links/"])
    func databaseErrorCarriesTheID(prefix: String) async throws {
        try await TestServer.with { server in
            // The table gone from under the server: every query of the route fails.
            try await TestDatabase.shared.withConnection(schema: server.schema) { connection in
                _ = try await connection.query("DROP TABLE links", logger: TestDatabase.logger)
            }
            let reply = try await server.send(.get, prefix + "anycode", user: "ann", requestID: "failing-1")
            #expect(reply.status == 500)
            #expect(reply.requestID == "failing-1")
            #expect(reply.body == #"{"error":{"message":"Internal Server Error"}}"#)
        }
    }

    @Test("A new id is the same in the header and in the body")
    func newIDMatchesTheBody() async throws {
        try await TestServer.with { server in
            let reply = try await server.send(.post, "/links", user: "ann", body: #"{"url":"https://swift.org/n"}"#)
            #expect(reply.status == 201)
            let id = try #require(reply.requestID)
            #expect(Self.isNewID(id))
            #expect(try reply.decode(LinkResponse.self).requestID == id)
        }
    }

    /// Whether `id` has the form of an id Hummingbird makes, which the server adopts: 17 to 32
    /// lowercase hexadecimal digits.
    static func isNewID(_ id: String) -> Bool {
        (17...32).contains(id.utf8.count) && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
