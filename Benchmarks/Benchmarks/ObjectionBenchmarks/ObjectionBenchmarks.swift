import Benchmark
import BenchmarkSupport
import Objection

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The tracked suite: the comparison's cases for this library, under package-benchmark, so that
// regressions show up in wall clock, throughput and allocation counts.
//
//   swift package --package-path Benchmarks benchmark
//   swift package --package-path Benchmarks benchmark baseline update main   # then compare
//
// CI checks each case's allocations (p90) against Thresholds/swift-<toolchain>/, written by
// `bash Benchmarks/update-thresholds`. Allocations, not instructions: this project's machines
// do not expose hardware counters (`perf stat -e instructions` says "not supported"), and
// package-benchmark's retain/release counters crash on Swift 6.3 (ordo-one/benchmark#349).
// Instructions are counted apart, under callgrind, by `.ci/instruction-counts`.
//
// Every case that reads from a built injector resolves once before `startMeasurement()`, so that
// its count does not depend on how building the injector left the task's allocator.
//
// OBJECTION_BENCHMARK_SMOKE=1 runs every benchmark for a few iterations only.

let benchmarks: @Sendable () -> Void = {
    let smoke = getenv("OBJECTION_BENCHMARK_SMOKE") != nil
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: smoke ? 0 : 1,
        maxDuration: smoke ? .milliseconds(20) : .seconds(1),
        maxIterations: smoke ? 3 : 1_000_000,
        // Allocations are the metric CI checks against the committed thresholds: unlike time,
        // they do not depend on the machine's speed or load. A little leeway absorbs the
        // scheduler's share of the concurrent cases.
        thresholds: [.mallocCountTotal: .init(relative: [.p90: 5], absolute: [.p90: 2])]
    )

    Benchmark("TransientGraph.8Objects.Autowired") { benchmark in
        let injector = try await InjectorActor(modules: [ObjectionGraphs.Autowired()])
        _ = try await injector.get(Service.self)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try await injector.get(Service.self)) }
    }

    Benchmark("TransientGraph.8Objects.ClosureProviders") { benchmark in
        let injector = try await InjectorActor(modules: [ObjectionGraphs.Closures()])
        _ = try await injector.get(Service.self)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try await injector.get(Service.self)) }
    }

    Benchmark("TransientGraph.111Objects") { benchmark in
        let injector = try await InjectorActor(modules: [ObjectionGraphs.Deep()])
        _ = try await injector.get(Node.self, named: "")
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try await injector.get(Node.self, named: "")) }
    }

    Benchmark("SingletonHit") { benchmark in
        let injector = try await InjectorActor(modules: [ObjectionGraphs.Autowired()])
        _ = try await injector.get(Engine.self)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try await injector.get(Engine.self)) }
    }

    for tasks in [2, 8] {
        Benchmark("SingletonHit.\(tasks)Tasks.x1000") { benchmark in
            let injector = try await InjectorActor(modules: [ObjectionGraphs.Autowired()])
            _ = try await injector.get(Engine.self)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                try await inParallel(tasks, total: 1_000) {
                    for _ in 0..<$0 { blackHole(try await injector.get(Engine.self)) }
                }
            }
        }
    }

    // 16,000 waiters guard the waiting path at scale: a registration that allocated, or copied
    // every earlier waiter, shows in the allocations of every waiter (+16,000). The leeway is one
    // allocation per 500 waiters: a waiter that arrives as the construction ends may or may not
    // register, as the scheduler has it (a CI run of 16,000 read above the committed 94,279 by
    // more than 2 once, where runs before and after read 94,280).
    for (tasks, iterations) in [(1_000, 50), (16_000, 10)] {
        let leeway = BenchmarkThresholds(relative: [.p90: 5], absolute: [.p90: tasks / 500])
        Benchmark(
            "ColdStampede.\(tasks)Tasks",
            configuration: .init(maxIterations: smoke ? 1 : iterations, thresholds: [.mallocCountTotal: leeway])
        ) {
            benchmark in
            for _ in benchmark.scaledIterations {
                let injector = try await InjectorActor(modules: [
                    ObjectionGraphs.Slow(latency: .milliseconds(1))
                ])
                try await inParallel(tasks, total: tasks) { _ in blackHole(try await injector.get(Engine.self)) }
            }
        }
    }

    Benchmark("PerRequest.ScopeHandlerDisposal") { benchmark in
        let root = try await InjectorActor(modules: [ObjectionGraphs.Requests()])
        try await root.withScope { _ = try await $0.get(Handler.self) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await root.withScope { try await $0.get(Handler.self) })
        }
    }

    Benchmark("PerRequest.ServerShaped") { benchmark in
        let root = try await InjectorActor(modules: [ServerShapedRequest.Bindings()])
        let connection = ServerShapedRequest.Connection()
        blackHole(try await ServerShapedRequest.serve(root, id: 0, connection: connection))
        benchmark.startMeasurement()
        for id in benchmark.scaledIterations {
            blackHole(try await ServerShapedRequest.serve(root, id: id, connection: connection))
        }
    }

    for size in [10, 1_000, 10_000] {
        Benchmark("BuildInjector.\(size)Bindings", configuration: .init(maxIterations: smoke ? 1 : 10_000)) {
            benchmark in
            let module = ObjectionGraphs.Sized(count: size)
            for _ in benchmark.scaledIterations { blackHole(try await InjectorActor(modules: [module])) }
        }
        Benchmark("BuildChild.\(size)Bindings") { benchmark in
            let parent = try await InjectorActor(modules: [ObjectionGraphs.Sized(count: size)])
            let module = ObjectionGraphs.Sized(count: 1)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(try await parent.child(modules: [module])) }
        }
    }
}
