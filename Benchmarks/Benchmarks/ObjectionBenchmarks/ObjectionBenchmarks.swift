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
// OBJECTION_BENCHMARK_SMOKE=1 runs every benchmark for a few iterations only (CI).

let benchmarks: @Sendable () -> Void = {
    let smoke = getenv("OBJECTION_BENCHMARK_SMOKE") != nil
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: smoke ? 0 : 1,
        maxDuration: smoke ? .milliseconds(20) : .seconds(1),
        maxIterations: smoke ? 3 : 1_000_000
    )

    Benchmark("Transient 8-object graph, autowired") { benchmark in
        let injector = try await InjectorActor(modules: [ObjectionGraphs.Autowired()])
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try await injector.get(Service.self)) }
    }

    Benchmark("Transient 8-object graph, closure providers") { benchmark in
        let injector = try await InjectorActor(modules: [ObjectionGraphs.Closures()])
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try await injector.get(Service.self)) }
    }

    Benchmark("Transient 111-object graph") { benchmark in
        let injector = try await InjectorActor(modules: [ObjectionGraphs.Deep()])
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try await injector.get(Node.self, named: "")) }
    }

    Benchmark("Cached singleton hit") { benchmark in
        let injector = try await InjectorActor(modules: [ObjectionGraphs.Autowired()])
        _ = try await injector.get(Engine.self)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try await injector.get(Engine.self)) }
    }

    for tasks in [2, 8] {
        Benchmark("Cached singleton hit, \(tasks) tasks x 1,000") { benchmark in
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

    Benchmark("Cold stampede, 1,000 tasks", configuration: .init(maxIterations: smoke ? 1 : 50)) { benchmark in
        for _ in benchmark.scaledIterations {
            let injector = try await InjectorActor(modules: [
                ObjectionGraphs.Slow(latency: .milliseconds(1))
            ])
            try await inParallel(1_000, total: 1_000) { _ in blackHole(try await injector.get(Engine.self)) }
        }
    }

    Benchmark("Per request: scope, handler, disposal") { benchmark in
        let root = try await InjectorActor(modules: [ObjectionGraphs.Requests()])
        try await root.withScope { _ = try await $0.get(Handler.self) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await root.withScope { try await $0.get(Handler.self) })
        }
    }

    for size in [10, 1_000, 10_000] {
        Benchmark("Build injector, \(size) bindings", configuration: .init(maxIterations: smoke ? 1 : 10_000)) {
            benchmark in
            let module = ObjectionGraphs.Sized(count: size)
            for _ in benchmark.scaledIterations { blackHole(try await InjectorActor(modules: [module])) }
        }
        Benchmark("Build child of \(size) bindings") { benchmark in
            let parent = try await InjectorActor(modules: [ObjectionGraphs.Sized(count: size)])
            let module = ObjectionGraphs.Sized(count: 1)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(try await parent.child(modules: [module])) }
        }
    }
}
