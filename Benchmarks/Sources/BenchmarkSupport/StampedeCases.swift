import Objection

/// Case 4: a cold stampede. `waiters` tasks ask at once for a singleton whose provider takes 1 ms,
/// at 100, 1,000 and 16,000 waiters, so that the cost of waiting can be seen per waiter and seen
/// to stay flat (a registration that copied every earlier waiter made it grow with their number).
extension Cases {
    /// The stampede sizes, in waiters.
    public static let stampedeWaiters = [100, 1_000, 16_000]

    /// The name of the stampede case of `waiters` waiters.
    public static func stampedeName(waiters: Int) -> String {
        "4. Cold stampede, \(grouped(waiters)) waiters, 1 ms provider"
    }

    enum StampedeContender {
        /// The provider on its own, awaited by one task: the floor, subtracted to cost a waiter.
        static let alone = "provider alone, 1 waiter"
        /// The baseline: every waiter awaits one shared `Task`.
        static let sharedTask = "shared Task"
        static let singleFlight = "hand-written single flight"
        static let cancellableFlight = "hand-written cancellable waiters"
        static let objection = "Objection"
    }

    static func stampedes() -> [BenchmarkCase] {
        stampedeWaiters.map(stampede)
    }

    static func stampede(waiters: Int) -> BenchmarkCase {
        let objectionConstructions = Count()
        let handConstructions = Count()
        let stampedeModule = StampedeModule(constructions: objectionConstructions)
        return BenchmarkCase(
            stampedeName(waiters: waiters),
            operations: 1,
            unit: "stampede",
            contenders: [
                Contender(StampedeContender.alone) { n in
                    for _ in 0..<n { sink(try await Task { try await slowEngine() }.value) }
                },
                Contender(StampedeContender.sharedTask, role: .baseline) { n in
                    for _ in 0..<n {
                        let shared = Task { try await slowEngine() }
                        try await inSeparateTasks(waiters) { sink(try await shared.value) }
                    }
                },
                Contender(StampedeContender.singleFlight) { n in
                    for _ in 0..<n {
                        let flight = HandWritten.SingleFlight {
                            handConstructions.increment()
                            try? await Task.sleep(for: .milliseconds(1))
                            return Engine()
                        }
                        try await inSeparateTasks(waiters) { sink(await flight.value()) }
                    }
                },
                Contender(StampedeContender.cancellableFlight) { n in
                    for _ in 0..<n {
                        let flight = HandWritten.CancellableFlight {
                            try? await Task.sleep(for: .milliseconds(1))
                            return Engine()
                        }
                        try await inSeparateTasks(waiters) { sink(try await flight.value()) }
                    }
                },
                Contender(StampedeContender.objection) { n in
                    for _ in 0..<n {
                        let before = objectionConstructions.value
                        let injector = try await InjectorActor(modules: [stampedeModule])
                        try await inSeparateTasks(waiters) {
                            sink(try await injector.get(Engine.self))
                        }
                        let built = objectionConstructions.value - before
                        guard built == 1 else { throw StampedeFailure(constructions: built) }
                    }
                },
            ]
        )
    }

    /// The provider of every contender: 1 ms, then the object.
    static func slowEngine() async throws -> Engine {
        try await Task.sleep(for: .milliseconds(1))
        return Engine()
    }

    /// Objection against the shared `Task` at every size, and the cost of one waiter: a stampede's
    /// time less the provider's own (the "provider alone" contender), divided by the waiters.
    /// `nil` when `results` hold no stampede.
    public static func stampedeTable(_ results: [Result]) -> String? {
        var lines = [
            "| Stampede (4) | Objection | shared Task | × shared Task | cancellable waiters × shared Task "
                + "| Objection per waiter | shared Task per waiter |",
            "|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for waiters in stampedeWaiters {
            let group = results.filter { $0.caseName == stampedeName(waiters: waiters) }
            func median(_ contender: String) -> Double? { group.first { $0.contender == contender }?.median }
            guard let objection = median(StampedeContender.objection),
                let shared = median(StampedeContender.sharedTask)
            else { continue }
            let alone = median(StampedeContender.alone) ?? 0
            let cancellable = median(StampedeContender.cancellableFlight).map { Harness.ratio($0, shared) } ?? "–"
            lines.append(
                "| \(grouped(waiters)) | \(Harness.format(objection)) | \(Harness.format(shared)) | "
                    + "\(Harness.ratio(objection, shared)) | \(cancellable) | "
                    + "\(Harness.format((objection - alone) / Double(waiters))) | "
                    + "\(Harness.format((shared - alone) / Double(waiters))) |"
            )
        }
        return lines.count > 2 ? lines.joined(separator: "\n") : nil
    }

    /// `16000` as "16,000".
    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index).isMultiple(of: 3) { result.append(",") }
            result.append(digit)
        }
        return result
    }

    struct StampedeModule: Module {
        let constructions: Count

        func configure(_ binder: Binder) {
            binder.bind(Engine.self).to { [constructions] _ in
                constructions.increment()
                return try await slowEngine()
            }.asSingleton()
        }
    }

    struct StampedeFailure: Error, CustomStringConvertible {
        let constructions: Int
        var description: String { "a stampede constructed the singleton \(constructions) times" }
    }
}
