import TestSupport
import Testing

@Suite("Counter", .timeLimit(.minutes(1)))
struct CounterTests {
    @Test("Increments from concurrent tasks all count")
    func concurrentIncrements() async {
        let counter = Counter()
        #expect(counter.value == 0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<1_000 {
                group.addTask { counter.increment() }
            }
        }
        #expect(counter.value == 1_000)
    }

    @Test("Each increment answers the count it made: serial numbers from 1")
    func serials() {
        let counter = Counter()
        #expect(counter.increment() == 1)
        #expect(counter.increment() == 2)
        #expect(counter.value == 2)
    }
}
