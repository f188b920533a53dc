import Ledger
import NIOHTTP1
import Objection
import PostgresNIO
import Synchronization
import TestSupport
import Testing

/// Each request's work runs in a transaction of its own: committed when the handler succeeds,
/// rolled back when it throws, invisible to the others until then.
@Suite("A transaction per request", .timeLimit(.minutes(2)))
struct TransactionTests {
    static let inFlight = 50

    @Test("A transfer commits both balances and its record")
    func transferCommits() async throws {
        try await TestServer.with { server in
            let alice = try await server.openAccount(owner: "alice", balance: 100)
            let bob = try await server.openAccount(owner: "bob", balance: 5)
            let reply = try await server.transfer(30, from: alice.id, to: bob.id, teller: "tom", requestID: "move-1")
            #expect(reply.status == .created)
            let body = try reply.decode(TransferResponse.self)
            #expect(body.transfer.fromBalance == 70)
            #expect(body.transfer.toBalance == 35)
            #expect(body.requestID == "move-1")
            #expect(body.teller == "tom")
            #expect(try await server.committedBalance(of: alice.id) == 70)
            #expect(try await server.committedBalance(of: bob.id) == 35)
            #expect(try await server.committedTransfers() == 1)
        }
    }

    @Test("A transfer whose second step fails rolls back its first: 404 and 409, nothing changed")
    func failedTransferRollsBack() async throws {
        try await TestServer.with { server in
            let alice = try await server.openAccount(owner: "alice", balance: 100)
            let bob = try await server.openAccount(owner: "bob", balance: 10)
            // Alice's number is the lower: debited first, then the credit finds no account.
            let unknown = try await server.transfer(30, from: alice.id, to: bob.id + 1_000)
            #expect(unknown.status == .notFound)
            #expect(unknown.body.contains("No account \(bob.id + 1_000)"))
            // Bob's number is the higher: Alice is credited first, then Bob holds too little.
            let poor = try await server.transfer(50, from: bob.id, to: alice.id)
            #expect(poor.status == .conflict)

            #expect(try await server.committedBalance(of: alice.id) == 100)
            #expect(try await server.committedBalance(of: bob.id) == 10)
            #expect(try await server.committedTransfers() == 0)
            let stats = try await server.stats()
            #expect(stats.failed == 2)
        }
    }

    @Test("A handler that fails after its writes rolls back, and the client gets an opaque 500")
    func failureAfterWritesRollsBack() async throws {
        struct LedgerOffline: Error {}
        let probe = TransactionProbe(afterTransfer: { _, _ in throw LedgerOffline() })
        try await TestServer.with(modules: [ProbeModule(probe: probe)]) { server in
            let alice = try await server.openAccount(owner: "alice", balance: 100)
            let bob = try await server.openAccount(owner: "bob", balance: 0)
            let reply = try await server.transfer(40, from: alice.id, to: bob.id, requestID: "offline-1")
            #expect(reply.status == .internalServerError)
            #expect(try reply.decode(ErrorBody.self) == .opaque)
            #expect(try await server.committedBalance(of: alice.id) == 100)
            #expect(try await server.committedBalance(of: bob.id) == 0)
            #expect(try await server.committedTransfers() == 0)
            // The request's journal was told its work failed, before the rollback.
            let journal = try await server.injector.get(Journal.self)
            let entry = try #require(journal.recentEntries.first { $0.requestID == "offline-1" })
            #expect(entry.succeeded == false)
        }
    }

    @Test("50 requests in their transactions at once each see their own row and no other's; then all commit")
    func concurrentTransactionsAreIsolated() async throws {
        let gate = Gate()
        let owner = "batch"
        let seen = Mutex<[Int64: Int]>([:])
        let probe = TransactionProbe(afterOpen: { account, connection in
            // On the connection the transaction scope bound: the store's insert is visible there
            // only if the store ran it in that same transaction.
            let count = try await connection.accountCount(owner: owner)
            seen.withLock { $0[account.id] = count }
            await gate.pass()
        })
        try await TestServer.with(modules: [ProbeModule(probe: probe)], maximumConnections: Self.inFlight + 4) {
            server in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponseStatus.self) { group in
                for index in 0..<Self.inFlight {
                    group.addTask {
                        let body = try json(OpenAccountRequest(owner: owner, balance: Int64(index)))
                        return try await server.send(.POST, "/accounts", teller: "t\(index)", json: body).status
                    }
                }
                // Every one inserted, in transactions open at the same moment.
                await gate.waitForArrivals(Self.inFlight)
                #expect(gate.held == Self.inFlight)
                #expect(try await server.committedAccounts(owner: owner) == 0)
                gate.open()
                return try await group.reduce(into: [HTTPResponseStatus]()) { $0.append($1) }
            }

            #expect(statuses == Array(repeating: .created, count: Self.inFlight))
            let counts = seen.withLock { $0 }
            #expect(counts.count == Self.inFlight)
            #expect(counts.values.allSatisfy { $0 == 1 })
            #expect(try await server.committedAccounts(owner: owner) == Self.inFlight)
        }
    }
}
