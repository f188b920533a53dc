import Ledger
import Logging
import NIOHTTP1
import Objection
import ObjectionVapor
import PostgresNIO
import PostgresTestSupport
import TestSupport
import Testing

/// Every request resolves its own scoped values, even while many are in flight at once.
@Suite("Request scopes isolate concurrent requests", .timeLimit(.minutes(2)))
struct RequestScopeTests {
    static let inFlight = 50

    @Test("Each of 50 requests held in flight together sees only its own id and teller")
    func concurrentRequestsSeeOwnValues() async throws {
        let gate = Gate()
        // A transaction, and so a connection, for each request held.
        try await TestServer.with(modules: [ProbeModule.gatingReads(at: gate)], maximumConnections: Self.inFlight + 4) {
            server in
            let account = try await server.openAccount(owner: "shared", balance: 7)
            let sent = (0..<Self.inFlight).map { (requestID: "iso-\($0)", teller: "teller\($0 % 7)-\($0)") }

            let replies = try await withThrowingTaskGroup(of: (Int, Reply).self) { group in
                for (index, request) in sent.enumerated() {
                    group.addTask {
                        let reply = try await server.send(
                            .GET, "/accounts/\(account.id)", teller: request.teller, requestID: request.requestID)
                        return (index, reply)
                    }
                }
                // Every request is inside its transaction scope, having read the account, before
                // any may finish.
                await gate.waitForArrivals(Self.inFlight)
                #expect(gate.held == Self.inFlight)
                gate.open()
                var replies = [Int: Reply]()
                for try await (index, reply) in group { replies[index] = reply }
                return replies
            }

            #expect(replies.count == Self.inFlight)
            for (index, request) in sent.enumerated() {
                let reply = try #require(replies[index])
                #expect(reply.status == .ok)
                let body = try reply.decode(AccountResponse.self)
                #expect(body.requestID == request.requestID)
                #expect(body.teller == request.teller)
                #expect(body.id == account.id)
                #expect(body.balance == 7)
            }

            // The scoped journals, written at the end of each scope, carry the same pairs.
            let entries = try await server.injector.get(Journal.self).recentEntries
            let byID = Dictionary(grouping: entries, by: \.requestID)
            for request in sent {
                let entry = try #require(byID[request.requestID]?.first)
                #expect(byID[request.requestID]?.count == 1)
                #expect(entry.teller == request.teller)
                #expect(entry.events == ["read \(account.id)"])
                #expect(entry.succeeded)
            }
        }
    }

    @Test("A request without X-Request-Id gets a fresh id from Vapor, different for each request")
    func generatedRequestIDs() async throws {
        try await TestServer.with { server in
            let account = try await server.openAccount(owner: "carol", balance: 1)
            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        let reply = try await server.send(.GET, "/accounts/\(account.id)", teller: "carol")
                        return try reply.decode(AccountResponse.self).requestID
                    }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(Set(ids).count == 20)
            #expect(ids.allSatisfy { !$0.isEmpty })
        }
    }

    @Test("Outside a request the request's values do not resolve, and the store only in a transaction")
    func requestValuesNeedAScope() async throws {
        try await TestServer.with { server in
            let teller = await #expect(throws: InjectionError.self) { try await server.injector.get(Teller.self) }
            #expect(teller?.code == .scopeViolation)
            let store = await #expect(throws: InjectionError.self) {
                try await server.injector.get(PostgresAccountStore.self)
            }
            #expect(store?.code == .scopeViolation)
            // In a request scope without a transaction there is no connection to build it on.
            let outsideTransaction = await #expect(throws: InjectionError.self) {
                try await server.injector.withScope(values: {
                    $0.bind(RequestIdentifier.self, to: RequestIdentifier("direct"))
                    $0.bind(Teller.self, to: Teller(name: "dora"))
                    $0.bind(Logger.self, to: TestDatabase.logger)
                }) { scope in
                    try await scope.get(LedgerService.self)
                }
            }
            #expect(outsideTransaction?.code == .missingBinding)
        }
    }
}
