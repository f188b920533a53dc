import LinkShortener
import Objection
import TestSupport
import Testing

/// The API of `openapi.yaml`, served through ObjectionOpenAPI under `/api` and hand-wired under
/// `/plain/api`: the same answers as the routes, a scope per operation disposed once it has been
/// written, `401` before any scope opens.
@Suite("The OpenAPI operations", .timeLimit(.minutes(2)))
struct OpenAPIRouteTests {
    @Test("createLink and getLink under /api: stored in a transaction, read back with the request's id and user")
    func createAndRead() async throws {
        try await TestServer.with { server in
            let prefix = "https://openapi.example/"
            let created = try await server.send(
                .post, "/api/links", user: "olga", requestID: "create-1",
                body: try CreateLinkRequest(url: prefix + "a").json())
            #expect(created.status == 201)
            #expect(created.requestID == "create-1")
            let link = try created.decode(LinkResponse.self)
            #expect(link.url == prefix + "a")
            #expect(link.owner == "olga")
            #expect(link.requestID == "create-1")
            #expect(try await server.committedLinks(urlPrefix: prefix) == 1)

            let read = try await server.send(.get, "/api/links/\(link.code)", user: "paul", requestID: "read-1")
            #expect(read.status == 200)
            #expect(read.requestID == "read-1")
            let readLink = try read.decode(LinkResponse.self)
            #expect(readLink.code == link.code)
            #expect(readLink.owner == "olga")
            #expect(readLink.user == "paul")
            #expect(readLink.requestID == "read-1")

            let twin = try await server.send(.get, "/plain/api/links/\(link.code)", user: "paul", requestID: "read-2")
            #expect(twin.status == 200)
            let twinLink = try twin.decode(LinkResponse.self)
            #expect(twinLink.code == link.code && twinLink.url == link.url && twinLink.owner == "olga")
            #expect(twinLink.user == "paul" && twinLink.requestID == "read-2")
        }
    }

    @Test(
        "Unknown code 404, bad URL 400, no bearer 401 with its challenge and no transaction opened",
        arguments: ["/api", "/plain/api"])
    func refusals(prefix: String) async throws {
        try await TestServer.with { server in
            let missing = try await server.send(.get, "\(prefix)/links/nope", user: "paul")
            #expect(missing.status == 404)
            #expect(missing.body.contains("No link 'nope'"))

            let bad = try await server.send(
                .post, "\(prefix)/links", user: "paul", body: try CreateLinkRequest(url: "ftp://x").json())
            #expect(bad.status == 400)

            let before = try await server.stats()
            let anonymous = try await server.send(.get, "\(prefix)/links/nope")
            #expect(anonymous.status == 401)
            #expect(anonymous.header("WWW-Authenticate") == "Bearer")
            #expect(anonymous.requestID != nil)
            let after = try await server.stats()
            #expect(after.counters["auditsOpened"] == before.counters["auditsOpened"])
        }
    }

    @Test("Each operation under /api holds its scopes until answered: 50 at once, 100 scopes live, then none")
    func scopePerOperation() async throws {
        let gate = Gate()
        try await TestServer.with(modules: [ProbeModule.gatingLookups(at: gate)], maximumConnections: 60) { server in
            let link = try await server.createLink("https://openapi.example/many")
            let auditLog = try await server.injector.get(AuditLog.self)
            let flushedBefore = auditLog.flushedCount
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<50 {
                    group.addTask { try await server.send(.get, "/api/links/\(link.code)", user: "u\(index)").status }
                }
                await gate.waitForArrivals(50)
                // Each held operation has its request scope and its transaction scope open.
                let during = PrometheusText(try await server.send(.get, "/metrics").body)
                #expect(during.samples["objection_request_scopes_active"] == 100)
                #expect(auditLog.flushedCount == flushedBefore)
                gate.open()
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 50))
            #expect(auditLog.flushedCount - flushedBefore == 50)
            let after = PrometheusText(try await server.send(.get, "/metrics").body)
            #expect(after.samples["objection_request_scopes_active"] == 0)
        }
    }
}
