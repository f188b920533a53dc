import Ledger
import NIOHTTP1
import Testing

/// The process's singletons are built once, whatever the load, and the scoped and the hand-wired
/// routes give the same answer from the same database.
@Suite("Singletons", .timeLimit(.minutes(2)))
struct SingletonTests {
    @Test("After 200 concurrent requests on both routes, each singleton was built once")
    func builtOnce() async throws {
        try await TestServer.with { server in
            let account = try await server.openAccount(owner: "erin", balance: 42)
            let replies = try await withThrowingTaskGroup(of: Reply.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        let route = index.isMultiple(of: 2) ? "/accounts" : "/plain/accounts"
                        return try await server.send(.GET, "\(route)/\(account.id)", teller: "t\(index)")
                    }
                }
                return try await group.reduce(into: [Reply]()) { $0.append($1) }
            }
            #expect(replies.allSatisfy { $0.status == .ok })
            let balances = Set(try replies.map { try $0.decode(AccountResponse.self).balance })
            #expect(balances == [42])
            let stats = try await server.stats()
            #expect(stats.singletonBuilds == ["database-client": 1, "journal": 1])
            // One journal entry per request, scoped (in its transaction scope) or hand-wired.
            #expect(stats.succeeded == 201)
            #expect(stats.accounts == 1)
        }
    }
}
