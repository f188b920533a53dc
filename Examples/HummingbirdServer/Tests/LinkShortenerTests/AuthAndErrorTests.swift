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

    /// Spaces, line breaks (one a header injection), tab, NUL, DEL, NEL, no-break space, line
    /// separator, zero-width space and a right-to-left override.
    static let urlsWithWhitespaceOrControls = [
        "https://swift.org/a b", " https://swift.org", "https://swift.org ", "https://swift.org/\n",
        "https://swift.org/a\r\nX-Injected: 1", "https://swift.org/\t", "https://swift.org/\u{0}",
        "https://swift.org/\u{7F}", "https://swift.org/\u{85}", "https://swift.org/\u{A0}",
        "https://swift.org/\u{2028}", "https://swift.org/\u{200B}", "https://swift.org/\u{202E}gpj.exe",
    ]

    @Test("A URL with whitespace or control characters gives 400 and stores nothing")
    func urlWithWhitespaceOrControls() async throws {
        try await TestServer.with { server in
            for url in Self.urlsWithWhitespaceOrControls {
                let body = try CreateLinkRequest(url: url).json()
                let reply = try await server.send(.post, "/links", user: "kim", body: body)
                #expect(reply.status == 400, "\(url.debugDescription)")
            }
            #expect(try await server.stats().links == 0)
        }
    }

    @Test("A URL needs a host, and may have user information, a port, an IPv6 or non-ASCII host")
    func urlHosts() async throws {
        try await TestServer.with { server in
            for url in ["https:///path", "http://:8080/", "https://user@/", "https://?q", "https://#f", "http://[]/"] {
                let body = try CreateLinkRequest(url: url).json()
                let reply = try await server.send(.post, "/links", user: "lee", body: body)
                #expect(reply.status == 400, "\(url)")
            }
            let accepted = [
                "http://x", "https://[::1]:8080/a", "https://user:pw@host:8080/p?q=1#f", "https://例え.jp/パス",
            ]
            for url in accepted {
                let body = try CreateLinkRequest(url: url).json()
                let reply = try await server.send(.post, "/links", user: "lee", body: body)
                #expect(reply.status == 201, "\(url)")
                #expect(try reply.decode(LinkResponse.self).url == url)
            }
            #expect(try await server.stats().links == accepted.count)
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
