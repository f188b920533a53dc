import Hummingbird
import LinkShortener
import NIOConcurrencyHelpers
import PostgresNIO
import TestSupport
import Testing

/// Each request's work runs in a transaction of its own: committed when the handler succeeds,
/// rolled back when it throws, invisible to the others until then.
@Suite("A transaction per request", .timeLimit(.minutes(2)))
struct TransactionTests {
    static let inFlight = 100

    @Test("A request that fails after its insert leaves no row; one that succeeds commits its row")
    func failedRequestRollsBack() async throws {
        struct ProbeFailure: Error {}
        let probe = TransactionProbe(afterInsert: { link, _ in
            if link.url.hasSuffix("/fail") { throw ProbeFailure() }
            if link.url.hasSuffix("/refuse") { throw HTTPError(.conflict, message: "Refused after the insert") }
        })
        try await TestServer.with(modules: [ProbeModule(probe: probe)]) { server in
            let prefix = "https://rollback.example/"
            let failed = try await server.send(
                .post, "/links", user: "rita", requestID: "fail-1",
                body: try CreateLinkRequest(url: prefix + "fail").json())
            #expect(failed.status == 500)
            #expect(failed.requestID == "fail-1")
            // The handler's own error reaches the client as itself: wrapped in postgres-nio's
            // PostgresTransactionError, it would have been a 500.
            let refused = try await server.send(
                .post, "/links", user: "rita", requestID: "refuse-1",
                body: try CreateLinkRequest(url: prefix + "refuse").json())
            #expect(refused.status == 409)
            #expect(refused.requestID == "refuse-1")
            let created = try await server.send(
                .post, "/links", user: "rita", body: try CreateLinkRequest(url: prefix + "ok").json())
            #expect(created.status == 201)

            #expect(try await server.committedLinks(urlPrefix: prefix + "fail") == 0)
            #expect(try await server.committedLinks(urlPrefix: prefix + "refuse") == 0)
            #expect(try await server.committedLinks(urlPrefix: prefix + "ok") == 1)
            #expect(try await server.stats().links == 1)
        }
    }

    @Test("100 requests in their transactions at once each see their own row and no other's; then all commit")
    func concurrentTransactionsAreIsolated() async throws {
        let gate = Gate()
        let prefix = "https://batch.example/"
        let visible = NIOLockedValueBox<[String: Int]>([:])
        let probe = TransactionProbe(afterInsert: { link, connection in
            // Counted inside the transaction, before any of them may commit.
            let count = try await connection.countLinks(urlPrefix: prefix)
            visible.withLockedValue { $0[link.url] = count }
            await gate.pass()
        })
        try await TestServer.with(modules: [ProbeModule(probe: probe)], maximumConnections: Self.inFlight + 10) {
            server in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<Self.inFlight {
                    group.addTask {
                        let body = try CreateLinkRequest(url: prefix + "\(index)").json()
                        return try await server.send(.post, "/links", user: "u\(index)", body: body).status
                    }
                }
                // All of them inserted, in transactions open at the same moment.
                await gate.waitForArrivals(Self.inFlight)
                #expect(gate.held == Self.inFlight)
                #expect(try await server.committedLinks(urlPrefix: prefix) == 0)
                gate.open()
                return try await group.reduce(into: [Int: Int]()) { $0[$1, default: 0] += 1 }
            }

            #expect(statuses == [201: Self.inFlight])
            let counts = visible.withLockedValue { $0 }
            #expect(counts.count == Self.inFlight)
            #expect(counts.values.allSatisfy { $0 == 1 })
            #expect(try await server.committedLinks(urlPrefix: prefix) == Self.inFlight)
        }
    }
}
