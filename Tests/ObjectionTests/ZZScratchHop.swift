import Testing

@testable import Objection

enum ScratchLocal {
    @TaskLocal static var value: Int?
}

actor ScratchServer {
    let executor = CountingExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    func measure(_ work: nonisolated(nonsending) () async throws -> Void) async throws -> Int {
        let before = executor.enqueueCount
        try await work()
        return executor.enqueueCount - before
    }
}

@Suite("ZZScratch")
struct ZZScratch {
    @Test func probes() async throws {
        let root = try await RequestExecutorTests.root()
        let s = ScratchServer()
        print("PROBE nothing", try await s.measure { })
        print("PROBE taskLocal", try await s.measure { await ScratchLocal.$value.withValue(1) { } })
        print("PROBE withCurrent", try await s.measure { await InjectorActor.withCurrent(root) { } })
        print("PROBE root.get singleton", try await s.measure { _ = try await root.get((any Database).self) })
        print("PROBE root.get Config", try await s.measure { _ = try await root.get(Config.self) })
        print("PROBE withScope(values) empty", try await s.measure { try await root.withScope(values: { _ in }) { _ in } })
        print("PROBE withScope(modules) empty", try await s.measure { try await root.withScope { _ in } })
        print("PROBE root.shutdown of child", try await s.measure { let c = try await root.child(modules: []); await c.shutdown() })
        print("PROBE withScope get RequestID", try await s.measure { try await root.withScope(values: { $0.bind(RequestID.self, to: RequestID(value: 1)) }) { sc in _ = try await sc.get(RequestID.self) } })
        print("PROBE withScope get Session", try await s.measure { try await root.withScope(values: { $0.bind(RequestID.self, to: RequestID(value: 1)) }) { sc in _ = try await sc.get(RequestExecutorTests.Session.self) } })
        print("PROBE withScope get Handler", try await s.measure { try await root.withScope(values: { $0.bind(RequestID.self, to: RequestID(value: 1)) }) { sc in _ = try await sc.get(RequestExecutorTests.Handler.self) } })
    }
}
