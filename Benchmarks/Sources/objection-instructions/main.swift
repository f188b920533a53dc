import CountedRun

// Runs one hot path a given number of times, for `.ci/instruction-counts`, which counts the
// instructions of a run with N iterations and of one with 2N under callgrind: their difference,
// divided by N, is the cost of one operation, without the start-up and set-up both runs share.
//
//   objection-instructions singleton-hit 20000

runCounted(program: "objection-instructions", usage: HotPath.usage, path: HotPath.init(name:)) {
    try await $0.run(iterations: $1)
}
