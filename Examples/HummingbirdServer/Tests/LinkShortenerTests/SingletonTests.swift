import LinkShortener
import Objection
import ObjectionHummingbird
import Testing

/// The root's singletons are built once per process and shared by every request.
@Suite("Singletons", .timeLimit(.minutes(2)))
struct SingletonTests {
    @Test("200 concurrent requests of every kind leave each singleton built exactly once")
    func builtOnceUnderLoad() async throws {
        try await TestServer.with { server in
            let seed = try await server.createLink("https://swift.org/singletons")
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        switch index % 4 {
                        case 0:
                            try await server.send(
                                .post, "/links", user: "u\(index)", body: #"{"url":"https://e.com/\#(index)"}"#
                            )
                            .status
                        case 1: try await server.send(.get, "/links/\(seed.code)", user: "u\(index)").status
                        case 2: try await server.send(.get, "/plain/links/\(seed.code)", user: "u\(index)").status
                        default: try await server.send(.get, "/links/unknown\(index)", user: "u\(index)").status
                        }
                    }
                }
                return try await group.reduce(into: [Int: Int]()) { $0[$1, default: 0] += 1 }
            }
            #expect(statuses == [201: 50, 200: 100, 404: 50])

            let stats = try await server.stats()
            #expect(stats.singletonBuilds == ["metrics": 1, "postgres-client": 1, "audit-log": 1])
            #expect(stats.links == 51)
            #expect(stats.counters["linksCreated"] == 51)
            #expect(stats.counters["plainRequests"] == 50)
            #expect(server.lifecycle.built.count == 3)
        }
    }

    @Test("Both routes share one database: a link created through the scoped route is found by the plain one")
    func scopedAndPlainShareTheDatabase() async throws {
        try await TestServer.with { server in
            let link = try await server.createLink("https://swift.org/shared", user: "dave")
            let reply = try await server.send(.get, "/plain/links/\(link.code)", user: "erin", requestID: "plain-1")
            #expect(reply.status == 200)
            let body = try reply.decode(LinkResponse.self)
            #expect(
                body
                    == LinkResponse(
                        Link(code: link.code, url: link.url, owner: "dave"), requestID: .init("plain-1"),
                        user: .init(name: "erin")))
        }
    }

    @Test("The link store exists only in a transaction scope")
    func storeOnlyInATransaction() async throws {
        try await TestServer.with { server in
            let outside = await #expect(throws: InjectionError.self) {
                try await server.injector.get((any LinkStore).self)
            }
            #expect(outside?.code == .scopeViolation)
            // A request scope without a transaction has no connection to build it on.
            let withoutTransaction = await #expect(throws: InjectionError.self) {
                try await server.injector.withScope(values: { _ in }) { scope in
                    try await scope.get((any LinkStore).self)
                }
            }
            #expect(withoutTransaction?.code == .missingBinding)
            #expect(withoutTransaction.map { "\($0)".contains("PostgresConnection") } == true)
        }
    }
}
