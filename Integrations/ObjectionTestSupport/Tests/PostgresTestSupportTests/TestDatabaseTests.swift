import PostgresNIO
import PostgresTestSupport
import Testing

/// What needs no server: the names, the connections' configuration and the budget. The examples'
/// tests use the rest against a real one.
@Suite("TestDatabase", .timeLimit(.minutes(1)))
struct TestDatabaseTests {
    static let database = TestDatabase(
        server: PostgresClient.Configuration(
            host: "127.0.0.1", port: 54_329, username: "objection", password: "secret", database: "objection_example",
            tls: .disable),
        applicationName: "support-tests", schemaPrefix: "support_test_", connectionBudget: 10)

    @Test("A schema name is the prefix and 16 hexadecimal digits, new each time")
    func schemaNames() {
        let names = (0..<100).map { _ in Self.database.makeSchemaName() }
        #expect(Set(names).count == 100)
        for name in names {
            #expect(name.hasPrefix("support_test_"))
            let digits = name.dropFirst("support_test_".count)
            #expect(digits.count == 16)
            #expect(digits.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        }
    }

    @Test("The tests' own connections reach the server's host as the role it names, under their own name")
    func configuration() {
        let configuration = Self.database.configuration
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 54_329)
        #expect(configuration.username == "objection")
        #expect(configuration.password == "secret")
        #expect(configuration.database == "objection_example")
        let parameters = configuration.options.additionalStartupParameters.map { "\($0)=\($1)" }
        #expect(parameters == ["application_name=support-tests"])
    }
}

@Suite("ConnectionBudget", .timeLimit(.minutes(1)))
struct ConnectionBudgetTests {
    @Test("Serves requests first come, first served: a large one is not passed by a later small one")
    func firstComeFirstServed() async {
        let budget = ConnectionBudget(total: 10)
        await budget.acquire(8)
        let large = Task { await budget.acquire(6) }
        while await budget.waiting < 1 { await Task.yield() }
        // Were it served out of turn, the small request would never wait, and the time limit fails.
        let small = Task { await budget.acquire(1) }
        while await budget.waiting < 2 { await Task.yield() }
        #expect(await budget.free == 2)
        await budget.release(8)
        await large.value
        await small.value
        #expect(await budget.waiting == 0)
        #expect(await budget.free == 3)
    }
}
