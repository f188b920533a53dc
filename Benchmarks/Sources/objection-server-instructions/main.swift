import CountedRun

// Sends N requests through one framework's route, in process, for `.ci/instruction-counts`, which
// counts the instructions of a run with N requests and of one with 2N under callgrind: their
// difference, divided by N, is the cost of one request, without the start-up both runs share.
// A scoped route's count less its twin's is what Objection and its glue add per request.
//
//   objection-server-instructions hummingbird-scoped 400

runCounted(program: "objection-server-instructions", usage: ServerPath.usage, path: ServerPath.init(name:)) {
    try await $0.run(iterations: $1)
}
