import LinkShortener
import Testing

/// The audit log keeps a bounded window of records and refuses them once disposed.
@Suite("Audit log")
struct AuditLogTests {
    @Test("Keeps the latest records, oldest first, and counts every one")
    func keepsALatestWindow() {
        let log = AuditLog(config: AppConfig(auditRetention: 3), lifecycle: LifecycleLog())
        for index in 0..<5 { log.append(AuditRecord(requestID: "r\(index)", user: "u", events: [])) }
        #expect(log.recentRecords.map(\.requestID) == ["r2", "r3", "r4"])
        #expect(log.flushedCount == 5)
    }

    @Test("Records its construction and disposal, and drops records after disposal")
    func lifecycle() async throws {
        let lifecycle = LifecycleLog()
        let log = AuditLog(config: AppConfig(), lifecycle: lifecycle)
        #expect(log.append(AuditRecord(requestID: "before", user: "u", events: [])))
        try await log.dispose()
        #expect(!log.append(AuditRecord(requestID: "after", user: "u", events: [])))
        #expect(log.recentRecords.map(\.requestID) == ["before"])
        #expect(lifecycle.events == [.built("audit-log"), .disposed("audit-log")])
    }
}
