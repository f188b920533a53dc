import LinkShortener
import Objection
import TestSupport
import Testing

/// The objects a request scope builds are disposed when the request ends, once each.
@Suite("Scoped objects are disposed per request", .timeLimit(.minutes(2)))
struct ScopedDisposalTests {
    static let inFlight = 100

    @Test("100 audits open while their transactions are open, none flushed until each request ends")
    func disposedAtTheEndOfEachRequest() async throws {
        let gate = Gate()
        // A transaction, and so a connection, for each request held.
        try await TestServer.with(
            modules: [ProbeModule.gatingLookups(at: gate)], maximumConnections: Self.inFlight + 10
        ) { server in
            let link = try await server.createLink("https://swift.org/disposal")
            let metrics = try await server.injector.get(Metrics.self)
            let auditLog = try await server.injector.get(AuditLog.self)
            let openedBefore = metrics.snapshot()[.auditsOpened] ?? 0
            let flushedBefore = auditLog.flushedCount

            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<Self.inFlight {
                    // Half known codes, half unknown: an error response ends the scope too.
                    let code = index.isMultiple(of: 2) ? link.code : "missing\(index)"
                    group.addTask { try await server.send(.get, "/links/\(code)", user: "u\(index)").status }
                }
                await gate.waitForArrivals(Self.inFlight)
                #expect((metrics.snapshot()[.auditsOpened] ?? 0) - openedBefore == Self.inFlight)
                #expect(auditLog.flushedCount == flushedBefore)
                gate.open()
                return try await group.reduce(into: [Int: Int]()) { $0[$1, default: 0] += 1 }
            }

            #expect(statuses == [200: Self.inFlight / 2, 404: Self.inFlight / 2])
            // Each transaction scope disposed its audit before its response was written.
            #expect(auditLog.flushedCount - flushedBefore == Self.inFlight)
            #expect((metrics.snapshot()[.auditsOpened] ?? 0) - openedBefore == Self.inFlight)
        }
    }

    @Test("Requests refused before a scope opens build nothing to dispose")
    func unauthorizedRequestsOpenNoScope() async throws {
        try await TestServer.with { server in
            let link = try await server.createLink("https://swift.org/refused")
            let before = try await server.stats()
            for _ in 0..<10 { _ = try await server.send(.get, "/links/\(link.code)") }
            let after = try await server.stats()
            #expect(after.counters["auditsOpened"] == before.counters["auditsOpened"])
            #expect(after.auditsFlushed == before.auditsFlushed)
        }
    }
}
