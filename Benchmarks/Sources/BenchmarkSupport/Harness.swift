/// Runs every contender of a case in one process, interleaved round by round, and reports the
/// median time per operation with its range.
public struct Contender: Sendable {
    public enum Role: Sendable {
        /// Hand-written code: the baseline of the "× hand-written" column.
        case baseline
        /// Swinject: the reference of the "× Swinject" column.
        case swinject
        case other
    }

    public let name: String
    public let role: Role
    /// Performs `n` operations.
    public let run: @Sendable (Int) async throws -> Void

    public init(_ name: String, role: Role = .other, run: @escaping @Sendable (Int) async throws -> Void) {
        self.name = name
        self.role = role
        self.run = run
    }
}

public struct BenchmarkCase: Sendable {
    public let name: String
    public let operations: Int
    public let contenders: [Contender]
    /// What the case measures per operation, when it is not a single call ("1,000 tasks").
    public let unit: String

    public init(_ name: String, operations: Int, unit: String = "op", contenders: [Contender]) {
        self.name = name
        self.operations = operations
        self.unit = unit
        self.contenders = contenders
    }
}

public struct Result: Sendable {
    public let caseName: String
    public let unit: String
    public let contender: String
    public let role: Contender.Role
    /// Nanoseconds per operation, one sample per round.
    public let samples: [Double]

    public var median: Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    public var minimum: Double { samples.min() ?? 0 }
    public var maximum: Double { samples.max() ?? 0 }
}

public enum Harness {
    /// Measures `benchmarkCase`: a warm-up, then `rounds` rounds in which every contender runs
    /// `operations` operations, starting with a different contender each round.
    @concurrent
    public static func measure(_ benchmarkCase: BenchmarkCase, rounds: Int) async throws -> [Result] {
        let contenders = benchmarkCase.contenders
        let clock = ContinuousClock()
        for contender in contenders {
            try await contender.run(max(1, benchmarkCase.operations / 10))
        }
        var samples = Array(repeating: [Double](), count: contenders.count)
        for round in 0..<rounds {
            for step in contenders.indices {
                let index = (round + step) % contenders.count
                let elapsed = try await clock.measure { try await contenders[index].run(benchmarkCase.operations) }
                samples[index].append(nanoseconds(elapsed) / Double(benchmarkCase.operations))
            }
        }
        return contenders.indices.map { index in
            Result(
                caseName: benchmarkCase.name,
                unit: benchmarkCase.unit,
                contender: contenders[index].name,
                role: contenders[index].role,
                samples: samples[index]
            )
        }
    }

    public static func nanoseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    }

    /// A Markdown table of `results`, grouped by case, with ratios to the case's baseline and to
    /// Swinject.
    public static func table(_ results: [Result]) -> String {
        var lines = [
            "| Case | Contender | Median | Min – max | × hand-written | × Swinject |",
            "|---|---|---:|---:|---:|---:|",
        ]
        var caseOrder: [String] = []
        for result in results where !caseOrder.contains(result.caseName) { caseOrder.append(result.caseName) }
        for caseName in caseOrder {
            let group = results.filter { $0.caseName == caseName }
            let baseline = group.first { $0.role == .baseline }?.median
            let swinject = group.first { $0.role == .swinject }?.median
            for result in group {
                let perUnit = result.unit == "op" ? "" : " per \(result.unit)"
                lines.append(
                    "| \(caseName) | \(result.contender) | \(format(result.median))\(perUnit) | "
                        + "\(format(result.minimum)) – \(format(result.maximum)) | "
                        + "\(ratio(result.median, baseline)) | \(ratio(result.median, swinject)) |"
                )
            }
        }
        return lines.joined(separator: "\n")
    }

    static func ratio(_ value: Double, _ reference: Double?) -> String {
        guard let reference, reference > 0 else { return "" }
        let ratio = value / reference
        return ratio >= 10 ? "\(Int(ratio.rounded()))×" : "\(Double(Int(ratio * 100)) / 100)×"
    }

    public static func format(_ nanoseconds: Double) -> String {
        func rounded(_ value: Double) -> String {
            value >= 100 ? String(Int(value.rounded())) : String(Double(Int(value * 10)) / 10)
        }
        if nanoseconds < 1_000 { return rounded(nanoseconds) + " ns" }
        // Two decimals, rounded, under 10 µs: the per-request cases differ by tens of nanoseconds.
        if nanoseconds < 10_000 {
            let hundredths = Int((nanoseconds / 10).rounded())
            let fraction = hundredths % 100
            return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) µs"
        }
        if nanoseconds < 1_000_000 { return rounded(nanoseconds / 1_000) + " µs" }
        return rounded(nanoseconds / 1_000_000) + " ms"
    }
}
