import BenchmarkSupport
import Objection

/// The paths whose instructions CI counts, each set up and run once before the counted iterations,
/// so that first-use costs fall in the set-up both runs share.
enum HotPath: String, CaseIterable {
    /// A cached singleton: `get(Engine.self)` after the first construction.
    case singletonHit = "singleton-hit"
    /// The 8-object transient graph, autowired.
    case transientGraph = "transient-graph"
    /// One request scope: the handler (3 scoped, 5 singleton, 2 transient objects), the disposal.
    case requestScope = "request-scope"
    /// A new injector and 1,000 tasks asking at once for its singleton, built once.
    case stampede = "stampede-1000"

    /// Off the main actor, like the comparison's loops: the main actor's hops are not the path.
    @concurrent
    func run(iterations: Int) async throws {
        switch self {
        case .singletonHit:
            let injector = try await InjectorActor(modules: [ObjectionGraphs.Autowired()])
            for _ in 0...iterations { sink(try await injector.get(Engine.self)) }
        case .transientGraph:
            let injector = try await InjectorActor(modules: [ObjectionGraphs.Autowired()])
            for _ in 0...iterations { sink(try await injector.get(Service.self)) }
        case .requestScope:
            let root = try await InjectorActor(modules: [ObjectionGraphs.Requests()])
            for _ in 0...iterations { sink(try await root.withScope { try await $0.get(Handler.self) }) }
        case .stampede:
            for _ in 0...iterations { try await GatedStampede.run(waiters: 1_000) }
        }
    }
}
