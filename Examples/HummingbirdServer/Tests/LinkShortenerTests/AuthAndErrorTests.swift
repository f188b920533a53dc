import LinkShortener
import Testing

/// Authentication and error responses, on the scoped and the plain routes alike.
@Suite("Authentication and errors", .timeLimit(.minutes(2)))
struct AuthAndErrorTests {
    static let badAuthorizations: [String?] = [
        nil, "Basic YWxpY2U6cHc=", "Bearer ", "Bearer two words", "bearer alice",
    ]

    @Test(
        "Missing or malformed Authorization gives 401 with a Bearer challenge", arguments: ["/links/", "/plain/links/"])
    func unauthorized(prefix: String) async throws {
        try await TestServer.with { server in
            let link = try await server.createLink("https://swift.org/auth")
            for authorization in Self.badAuthorizations {
                let headers = authorization.map { [("Authorization", $0)] } ?? []
                let reply = try await HTTPTestClient.send(.get, prefix + link.code, port: server.port, headers: headers)
                #expect(reply.status == 401, "Authorization: \(authorization ?? "none")")
                #expect(reply.header("WWW-Authenticate") == "Bearer")
            }
            let posted = try await server.send(.post, "/links", body: #"{"url":"https://swift.org"}"#)
            #expect(posted.status == 401)
            #expect(try await server.send(.get, prefix + link.code, user: "ok").status == 200)
        }
    }

    @Test("An unknown code gives 404, with the request id echoed", arguments: ["/links/", "/plain/links/"])
    func unknownCode(prefix: String) async throws {
        try await TestServer.with { server in
            let reply = try await server.send(.get, prefix + "nosuchcode", user: "henry", requestID: "nf-1")
            #expect(reply.status == 404)
            #expect(reply.requestID == "nf-1")
        }
    }

    @Test("A URL that is not http(s) gives 400", arguments: ["ftp://example.com", "https://", "not a url"])
    func badURL(url: String) async throws {
        try await TestServer.with { server in
            let reply = try await server.send(.post, "/links", user: "ivy", body: #"{"url":"\#(url)"}"#)
            #expect(reply.status == 400)
        }
    }

    @Test("A created link is returned with 201, its owner and the request's id")
    func created() async throws {
        try await TestServer.with { server in
            let reply = try await server.send(
                .post, "/links", user: "jack", requestID: "c-1", body: #"{"url":"https://swift.org/c"}"#)
            #expect(reply.status == 201)
            let body = try reply.decode(LinkResponse.self)
            #expect(body.owner == "jack")
            #expect(body.user == "jack")
            #expect(body.requestID == "c-1")
            #expect(body.url == "https://swift.org/c")
            #expect(body.code.count == AppConfig().codeLength)
        }
    }
}
