import LinkShortener
import Objection
import TestSupport
import Testing

/// Every request resolves its own scoped values, even while many are in flight at once.
@Suite("Request scopes isolate concurrent requests", .timeLimit(.minutes(2)))
struct RequestScopeIsolationTests {
    static let inFlight = 100

    @Test("Each of 100 requests held in flight together sees only its own id and user")
    func concurrentRequestsSeeOwnValues() async throws {
        let gate = Gate()
        // A transaction, and so a connection, for each request held.
        try await TestServer.with(
            modules: [ProbeModule.gatingLookups(at: gate)], maximumConnections: Self.inFlight + 10
        ) { server in
            let link = try await server.createLink("https://swift.org/isolation")
            let sent = (0..<Self.inFlight).map { (requestID: "iso-\($0)", user: "user\($0 % 7)-\($0)") }

            let replies = try await withThrowingTaskGroup(of: (Int, HTTPReply).self) { group in
                for (index, request) in sent.enumerated() {
                    group.addTask {
                        let reply = try await server.send(
                            .get, "/links/\(link.code)", user: request.user, requestID: request.requestID)
                        return (index, reply)
                    }
                }
                // Every request is inside its transaction scope, having looked its code up, before any may finish.
                await gate.waitForArrivals(Self.inFlight)
                #expect(gate.held == Self.inFlight)
                gate.open()
                var replies = [Int: HTTPReply]()
                for try await (index, reply) in group { replies[index] = reply }
                return replies
            }

            #expect(replies.count == Self.inFlight)
            for (index, request) in sent.enumerated() {
                let reply = try #require(replies[index])
                #expect(reply.status == 200)
                let body = try reply.decode(LinkResponse.self)
                #expect(body.requestID == request.requestID)
                #expect(body.user == request.user)
                #expect(body.code == link.code)
                #expect(body.owner == "seeder")
                #expect(reply.requestID == request.requestID)
            }

            // The scoped audit trails, flushed at the end of each scope, carry the same pairs.
            let records = try await server.injector.get(AuditLog.self).recentRecords
            let byID = Dictionary(grouping: records, by: \.requestID)
            for request in sent {
                let trail = try #require(byID[request.requestID]?.first)
                #expect(byID[request.requestID]?.count == 1)
                #expect(trail.user == request.user)
                #expect(trail.events == ["resolved \(link.code)"])
            }
        }
    }

    @Test("A request without X-Request-ID gets a fresh id, different for each request")
    func generatedRequestIDs() async throws {
        try await TestServer.with { server in
            let link = try await server.createLink("https://swift.org/ids")
            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        let reply = try await server.send(.get, "/links/\(link.code)", user: "carol")
                        let body = try reply.decode(LinkResponse.self)
                        #expect(reply.requestID == body.requestID)
                        return body.requestID
                    }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(Set(ids).count == 20)
            #expect(ids.allSatisfy(RequestIDTests.isNewID))
        }
    }

    @Test("Outside a request the task has no current injector, and the request's values do not resolve")
    func noCurrentInjectorOutsideRequests() async throws {
        try await TestServer.with { server in
            #expect(InjectorActor.current == nil)
            #expect(InjectorActor.currentScope == nil)
            let error = await #expect(throws: InjectionError.self) {
                try await server.injector.get(AuthenticatedUser.self)
            }
            #expect(error?.code == .scopeViolation)
        }
    }
}
