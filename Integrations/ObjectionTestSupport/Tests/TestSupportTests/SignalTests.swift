import TestSupport
import Testing

@Suite("Signal", .timeLimit(.minutes(1)))
struct SignalTests {
    @Test("A waiter that comes after the signal fired returns at once")
    func firedBeforeWaiting() async throws {
        let signal = Signal()
        #expect(!signal.hasFired)
        signal.fire()
        #expect(signal.hasFired)
        try await signal.wait()
        try await signal.wait()
    }

    @Test("Every waiter is released when the signal fires")
    func waitersReleased() async throws {
        let signal = Signal()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<3 {
                group.addTask { try await signal.wait() }
            }
            signal.fire()
            try await group.waitForAll()
        }
    }

    @Test("A cancelled waiter throws CancellationError and the signal stays unfired")
    func cancellation() async throws {
        let signal = Signal()
        let waiter = Task { try await signal.wait() }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(!signal.hasFired)
    }
}
