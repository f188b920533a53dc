import TestSupport
import Testing

@Suite("Gate", .timeLimit(.minutes(1)))
struct GateTests {
    @Test("Holds the tasks that reach it, counts them, and lets them and later ones through once open")
    func holdsThenReleases() async {
        let gate = Gate()
        let passed = EventLog()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<4 {
                group.addTask {
                    await gate.pass()
                    passed.record("passed \(index)")
                }
            }
            await gate.waitForArrivals(4)
            #expect(gate.held == 4)
            #expect(passed.all.isEmpty)
            gate.open()
            await group.waitForAll()
        }
        #expect(gate.held == 0)
        #expect(Set(passed.all) == ["passed 0", "passed 1", "passed 2", "passed 3"])
        await gate.pass()
        await gate.waitForArrivals(5)
    }

    @Test("Waiting for arrivals already counted returns at once")
    func arrivalsAlreadyCounted() async {
        let gate = Gate()
        gate.open()
        await gate.pass()
        await gate.pass()
        await gate.waitForArrivals(2)
        #expect(gate.held == 0)
    }
}

@Suite("EventLog")
struct EventLogTests {
    @Test("Keeps the events in the order they were recorded")
    func order() {
        let events = EventLog()
        #expect(events.all.isEmpty)
        events.record("built")
        events.record("disposed")
        #expect(events.all == ["built", "disposed"])
    }
}
