import BenchmarkSupport

// Every case for every contender, in one process, interleaved round by round. `--smoke` runs a few
// small rounds so CI can check that the comparison still builds and runs; it asserts no timing.

let smoke = CommandLine.arguments.contains("--smoke")
let scale = smoke ? 1_000 : 1
let rounds = smoke ? 2 : 11
let filter = CommandLine.arguments.firstIndex(of: "--filter").flatMap { index in
    CommandLine.arguments.indices.contains(index + 1) ? CommandLine.arguments[index + 1] : nil
}

print("# Objection vs hand-written wiring vs Swinject\n")
print(
    smoke
        ? "Smoke run: timings are meaningless.\n"
        : "\(rounds) interleaved rounds per case; median and range of ns per operation.\n")

var results: [Result] = []
let contenderFilter = CommandLine.arguments.firstIndex(of: "--contender").flatMap { index in
    CommandLine.arguments.indices.contains(index + 1) ? CommandLine.arguments[index + 1] : nil
}
for benchmarkCase in try await Cases.all(scale: scale) where filter.map(benchmarkCase.name.contains) ?? true {
    let selected = BenchmarkCase(
        benchmarkCase.name,
        operations: benchmarkCase.operations,
        unit: benchmarkCase.unit,
        contenders: benchmarkCase.contenders.filter { contenderFilter.map($0.name.contains) ?? true }
    )
    results += try await Harness.measure(selected, rounds: selected.operations == 1 ? rounds * 2 : rounds)
}
print(Harness.table(results))
if let stampedes = Cases.stampedeTable(results) {
    print()
    print(stampedes)
}
if filter == nil || filter == "Memory" {
    print()
    print(try await Cases.memory(scale: scale))
}
