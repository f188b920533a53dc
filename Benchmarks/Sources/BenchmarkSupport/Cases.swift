import Objection
@preconcurrency import Swinject
import Synchronization

/// Every case of the comparison, with the same graph for every contender.
public enum Cases {
    /// `scale` divides the operation counts: 1 for a real run, large for a smoke run.
    public static func all(scale: Int) async throws -> [BenchmarkCase] {
        try await [transientGraph(scale), deepGraph(scale), singletonHit(scale)]
            + concurrentHits(scale)
            + stampedes() + perRequest(scale)
            + [perRequestWithValues(scale), serverShapedRequest(scale)]
            + buildCost(scale)
            + [ObserverCost.requestScope(scale), ObserverCost.requestThatBuildsNothing(scale)]
    }

    static func transientGraph(_ scale: Int) async throws -> BenchmarkCase {
        let autowired = try await InjectorActor(modules: [ObjectionGraphs.Autowired()])
        let closures = try await InjectorActor(modules: [ObjectionGraphs.Closures()])
        let swinject = Shared(SwinjectGraphs.transient())
        return BenchmarkCase(
            "1. Transient 8-object graph",
            operations: 20_000 / scale,
            contenders: [
                Contender("hand-written", role: .baseline) { n in
                    for _ in 0..<n { sink(HandWritten.service()) }
                },
                Contender("Objection, autowired") { n in
                    for _ in 0..<n { sink(try await autowired.get(Service.self)) }
                },
                Contender("Objection, closure providers") { n in
                    for _ in 0..<n { sink(try await closures.get(Service.self)) }
                },
                Contender("Swinject .graph", role: .swinject) { n in
                    for _ in 0..<n { sink(swinject.value.resolve(Service.self)) }
                },
            ]
        )
    }

    static func deepGraph(_ scale: Int) async throws -> BenchmarkCase {
        let injector = try await InjectorActor(modules: [ObjectionGraphs.Deep()])
        let swinject = Shared(SwinjectGraphs.deep())
        return BenchmarkCase(
            "1b. Transient 111-object graph (width 10)",
            operations: 1_000 / scale,
            contenders: [
                Contender("hand-written", role: .baseline) { n in
                    for _ in 0..<n { sink(DeepGraph.handWritten()) }
                },
                Contender("Objection, closure providers") { n in
                    for _ in 0..<n { sink(try await injector.get(Node.self, named: "")) }
                },
                Contender("Swinject .graph", role: .swinject) { n in
                    for _ in 0..<n { sink(swinject.value.resolve(Node.self, name: "")) }
                },
            ]
        )
    }

    static func singletonHit(_ scale: Int) async throws -> BenchmarkCase {
        let injector = try await InjectorActor(modules: [ObjectionGraphs.Autowired()])
        _ = try await injector.get(Engine.self)
        let swinject = Shared(SwinjectGraphs.transient())
        let stored = HandWritten.StoredReference()
        let mutex = HandWritten.MutexCache()
        return BenchmarkCase(
            "2. Cached singleton hit",
            operations: 200_000 / scale,
            contenders: [
                Contender("stored reference") { n in
                    for _ in 0..<n { sink(stored.read()) }
                },
                Contender("Mutex dictionary", role: .baseline) { n in
                    for _ in 0..<n { sink(mutex.engine()) }
                },
                Contender("Objection") { n in
                    for _ in 0..<n { sink(try await injector.get(Engine.self)) }
                },
                Contender("Swinject .container", role: .swinject) { n in
                    for _ in 0..<n { sink(swinject.value.resolve(Engine.self)) }
                },
            ]
        )
    }

    static func concurrentHits(_ scale: Int) async throws -> [BenchmarkCase] {
        let injector = try await InjectorActor(modules: [ObjectionGraphs.Autowired()])
        _ = try await injector.get(Engine.self)
        let swinject = Shared(SwinjectGraphs.transient().synchronize())
        let mutex = HandWritten.MutexCache()
        return [1, 2, 8].map { tasks in
            BenchmarkCase(
                "3. Cached singleton hit, \(tasks) task\(tasks == 1 ? "" : "s") (aggregate)",
                operations: 200_000 / scale,
                contenders: [
                    Contender("Mutex dictionary", role: .baseline) { n in
                        try await inParallel(tasks, total: n) { for _ in 0..<$0 { sink(mutex.engine()) } }
                    },
                    Contender("Objection") { n in
                        try await inParallel(tasks, total: n) {
                            for _ in 0..<$0 { sink(try await injector.get(Engine.self)) }
                        }
                    },
                    Contender("Swinject .container, synchronized", role: .swinject) { n in
                        try await inParallel(tasks, total: n) {
                            for _ in 0..<$0 { sink(swinject.value.resolve(Engine.self)) }
                        }
                    },
                ]
            )
        }
    }

    /// Case 5, and case 5a: the same requests served by two tasks at once, as a server's event
    /// loops do, timed per request of the two together. Shared objects — the singletons, the
    /// bindings, their cells' locks — are then written by both cores (reference counts, lock
    /// words), which a single task never shows.
    static func perRequest(_ scale: Int) async throws -> [BenchmarkCase] {
        let root = try await InjectorActor(modules: [ObjectionGraphs.Requests()])
        try await root.withScope { _ = try await $0.get(Handler.self) }
        let swinject = Shared(SwinjectGraphs.requestRoot())
        let hand = HandWritten.RequestRoot()
        let handWritten: @Sendable (Int) async throws -> Void = { n in for _ in 0..<n { sink(hand.serve()) } }
        let objection: @Sendable (Int) async throws -> Void = { n in
            for _ in 0..<n { sink(try await root.withScope { try await $0.get(Handler.self) }) }
        }
        return [
            BenchmarkCase(
                "5. Per request: scope, handler (3 scoped, 5 singleton, 2 transient), disposal",
                operations: 20_000 / scale,
                contenders: [
                    Contender("hand-written", role: .baseline, run: handWritten),
                    Contender("Objection withScope", run: objection),
                    Contender("Swinject child container", role: .swinject) { n in
                        for _ in 0..<n { sink(SwinjectGraphs.serveRequest(root: swinject.value)) }
                    },
                ]
            ),
            BenchmarkCase(
                "5a. Per request, 2 tasks at once (aggregate)",
                operations: 20_000 / scale,
                contenders: [
                    Contender("hand-written", role: .baseline) { try await inParallel(2, total: $0, handWritten) },
                    Contender("Objection withScope") { try await inParallel(2, total: $0, objection) },
                ]
            ),
        ]
    }

    static func perRequestWithValues(_ scale: Int) async throws -> BenchmarkCase {
        let root = try await InjectorActor(modules: [
            ObjectionGraphs.Requests(), ObjectionGraphs.RequestValuesDeclared(),
        ])
        let swinject = Shared(SwinjectGraphs.requestRoot())
        let hand = HandWritten.RequestRoot()
        return BenchmarkCase(
            "5b. Per request, the request's own value bound into its scope",
            operations: 20_000 / scale,
            contenders: [
                Contender("hand-written", role: .baseline) { n in
                    for _ in 0..<n { sink(hand.serve()) }
                },
                Contender("Objection withScope(values:)") { n in
                    for _ in 0..<n {
                        let context = RequestContext()
                        sink(
                            try await root.withScope(values: { $0.bind(RequestContext.self, to: context) }) {
                                try await $0.get(Handler.self)
                            })
                    }
                },
                Contender("Objection withScope(modules:)") { n in
                    for _ in 0..<n {
                        let values = ObjectionGraphs.RequestValues(context: RequestContext())
                        sink(try await root.withScope(modules: [values]) { try await $0.get(Handler.self) })
                    }
                },
                Contender("Swinject child container", role: .swinject) { n in
                    for _ in 0..<n {
                        sink(SwinjectGraphs.serveRequest(root: swinject.value, context: RequestContext()))
                    }
                },
            ]
        )
    }

    static func serverShapedRequest(_ scale: Int) async throws -> BenchmarkCase {
        let plain = try await InjectorActor(modules: [ServerShapedRequest.Bindings()])
        let observed = try await InjectorActor(
            modules: [ServerShapedRequest.Bindings()],
            observer: ServerShapedRequest.SilentObserver()
        )
        let failuresOnly = try await InjectorActor(
            modules: [ServerShapedRequest.Bindings()],
            observer: ServerShapedRequest.FailureObserver()
        )
        let hand = ServerShapedRequest.HandWired()
        let connection = ServerShapedRequest.Connection()
        return BenchmarkCase(
            "5c. Per request like the example server: request scope, transaction scope through around, disposal",
            operations: 20_000 / scale,
            contenders: [
                Contender("hand-written", role: .baseline) { n in
                    for id in 0..<n { sink(try await hand.serve(id: id, connection: connection)) }
                },
                Contender("Objection") { n in
                    for id in 0..<n {
                        sink(try await ServerShapedRequest.serve(plain, id: id, connection: connection))
                    }
                },
                Contender("Objection, with an observer") { n in
                    for id in 0..<n {
                        sink(try await ServerShapedRequest.serve(observed, id: id, connection: connection))
                    }
                },
                Contender("Objection, with an observer of failures only") { n in
                    for id in 0..<n {
                        sink(try await ServerShapedRequest.serve(failuresOnly, id: id, connection: connection))
                    }
                },
            ]
        )
    }

    static func buildCost(_ scale: Int) async throws -> [BenchmarkCase] {
        try await [10, 1_000, 10_000].asyncMap { size in
            let module = ObjectionGraphs.Sized(count: size)
            let parent = try await InjectorActor(modules: [module])
            let childModule = ObjectionGraphs.Sized(count: 1)
            let swinjectParent = Shared(SwinjectGraphs.sized(size))
            let operations = max(1, (size >= 10_000 ? 20 : size >= 1_000 ? 200 : 20_000) / scale)
            return BenchmarkCase(
                "6. Build: \(size) bindings, and a child of it",
                operations: operations,
                contenders: [
                    Contender("Objection injector") { n in
                        for _ in 0..<n { sink(try await InjectorActor(modules: [module])) }
                    },
                    Contender("Objection child (1 binding)", role: .baseline) { n in
                        for _ in 0..<n { sink(try await parent.child(modules: [childModule])) }
                    },
                    Contender("Swinject container", role: .swinject) { n in
                        for _ in 0..<n { sink(SwinjectGraphs.sized(size)) }
                    },
                    Contender("Swinject child container (1 registration)") { n in
                        for _ in 0..<n {
                            let child = Container(parent: swinjectParent.value)
                            child.register(Int.self, name: "0") { _ in 0 }
                            sink(child)
                        }
                    },
                ]
            )
        }
    }

    /// Resident memory growth over many transient resolutions and scopes.
    public static func memory(scale: Int) async throws -> String {
        let resolutions = 1_000_000 / scale
        let scopes = 100_000 / scale
        let autowired = try await InjectorActor(modules: [ObjectionGraphs.Autowired()])
        let root = try await InjectorActor(modules: [ObjectionGraphs.Requests()])
        let swinject = Shared(SwinjectGraphs.transient())
        let swinjectRoot = Shared(SwinjectGraphs.requestRoot())
        // Warm every path once, so first-use allocations do not count as growth.
        _ = try await autowired.get(Service.self)
        _ = try await root.withScope { try await $0.get(Handler.self) }
        _ = swinject.value.resolve(Service.self)
        _ = SwinjectGraphs.serveRequest(root: swinjectRoot.value)
        let rows: [(String, Int)] = [
            (
                "Objection: \(resolutions) transient resolutions",
                try await Memory.growth { try await resolve(autowired, resolutions) }
            ),
            (
                "Objection: \(scopes) request scopes",
                try await Memory.growth { try await serve(root, scopes) }
            ),
            (
                "Swinject: \(resolutions) .graph resolutions",
                await Memory.growth { for _ in 0..<resolutions { sink(swinject.value.resolve(Service.self)) } }
            ),
            (
                "Swinject: \(scopes) child containers",
                await Memory.growth {
                    for _ in 0..<scopes { sink(SwinjectGraphs.serveRequest(root: swinjectRoot.value)) }
                }
            ),
        ]
        var lines = ["| Memory (7) | Resident growth |", "|---|---:|"]
        for (name, bytes) in rows { lines.append("| \(name) | \(bytes / 1024) KB |") }
        return lines.joined(separator: "\n")
    }

    @concurrent static func resolve(_ injector: InjectorActor, _ count: Int) async throws {
        for _ in 0..<count { sink(try await injector.get(Service.self)) }
    }

    @concurrent static func serve(_ root: InjectorActor, _ count: Int) async throws {
        for _ in 0..<count { sink(try await root.withScope { try await $0.get(Handler.self) }) }
    }
}

/// Runs `body` on `tasks` concurrent tasks that share `total` operations.
@concurrent
public func inParallel(
    _ tasks: Int,
    total: Int,
    _ body: @escaping @Sendable (Int) async throws -> Void
) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for task in 0..<tasks {
            let share = total / tasks + (task < total % tasks ? 1 : 0)
            group.addTask { try await body(share) }
        }
        try await group.waitForAll()
    }
}

/// Keeps the optimiser from discarding a value.
@inline(never)
public func sink<T>(_ value: T) {}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}

/// A thread-safe counter.
public final class Count: Sendable {
    private let count = Atomic<Int>(0)

    public init() {}

    public var value: Int { count.load(ordering: .relaxed) }

    public func increment() { count.add(1, ordering: .relaxed) }
}
