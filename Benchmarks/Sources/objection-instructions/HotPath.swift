import BenchmarkSupport
import Objection

/// The paths whose instructions CI counts, each set up and run once before the counted iterations,
/// so that first-use costs fall in the set-up both runs share.
enum HotPath {
    /// A cached singleton: `get(Engine.self)` after the first construction.
    case singletonHit
    /// The 8-object transient graph, autowired.
    case transientGraph
    /// The same graph bound with closure providers: each object an asynchronous recipe.
    case transientGraphOfClosures
    /// One request scope: the handler (3 scoped, 5 singleton, 2 transient objects), the disposal.
    case requestScope
    /// The same request, on an injector whose observer records everything (objection-compare 5d).
    case requestScopeRecorded
    /// The same request, on an injector whose observer asks for every event and does nothing.
    case requestScopeSilentlyObserved
    /// The same request, on an injector whose observer wants failures only, as a server's
    /// logging observer at `info` does, and hears none.
    case requestScopeFailuresObserved
    /// The same request without an observer, plus the 8 clock reads an observer that times its
    /// constructions and disposal needs: the floor under `requestScopeRecorded`.
    case requestScopeFloor
    /// A request whose scope builds nothing cached (objection-compare 5e), without an observer
    /// or, when `recorded`, with the observer that records everything.
    case requestThatBuildsNothing(recorded: Bool)
    /// A request scope that reads one built instance, bound `scope`: a singleton, or a
    /// refreshable binding (which the scope pins, and releases when it ends).
    case requestReads(Scope)
    /// A new injector and `waiters` tasks asking at once for its singleton, built once.
    case stampede(waiters: Int)
    /// The stampede's baseline: `waiters` tasks awaiting one shared `Task`.
    case sharedTask(waiters: Int)

    static let usage =
        "singleton-hit|transient-graph|transient-graph-closures|request-scope|request-scope-recorded"
        + "|request-scope-silently-observed|request-scope-failures-observed|request-scope-floor|request-builds-nothing|request-builds-nothing-recorded"
        + "|request-reads-singleton|request-reads-refreshable|stampede-<waiters>|shared-task-<waiters>"

    init?(name: String) {
        switch name {
        case "singleton-hit": self = .singletonHit
        case "transient-graph": self = .transientGraph
        case "transient-graph-closures": self = .transientGraphOfClosures
        case "request-scope": self = .requestScope
        case "request-scope-recorded": self = .requestScopeRecorded
        case "request-scope-silently-observed": self = .requestScopeSilentlyObserved
        case "request-scope-failures-observed": self = .requestScopeFailuresObserved
        case "request-scope-floor": self = .requestScopeFloor
        case "request-builds-nothing": self = .requestThatBuildsNothing(recorded: false)
        case "request-builds-nothing-recorded": self = .requestThatBuildsNothing(recorded: true)
        case "request-reads-singleton": self = .requestReads(.singleton)
        case "request-reads-refreshable": self = .requestReads(.refreshable)
        default:
            if let waiters = Self.waiters(name, prefix: "stampede-") {
                self = .stampede(waiters: waiters)
            } else if let waiters = Self.waiters(name, prefix: "shared-task-") {
                self = .sharedTask(waiters: waiters)
            } else {
                return nil
            }
        }
    }

    private static func waiters(_ name: String, prefix: String) -> Int? {
        guard name.hasPrefix(prefix), let waiters = Int(name.dropFirst(prefix.count)), waiters > 0 else { return nil }
        return waiters
    }

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
        case .transientGraphOfClosures:
            let injector = try await InjectorActor(modules: [ObjectionGraphs.Closures()])
            for _ in 0...iterations { sink(try await injector.get(Service.self)) }
        case .requestScope:
            try await Self.requests(observer: nil, iterations: iterations)
        case .requestScopeRecorded:
            try await Self.requests(observer: ObserverCost.RecordingObserver(), iterations: iterations)
        case .requestScopeSilentlyObserved:
            try await Self.requests(observer: ObserverCost.SilentObserver(), iterations: iterations)
        case .requestScopeFailuresObserved:
            try await Self.requests(observer: ServerShapedRequest.FailureObserver(), iterations: iterations)
        case .requestScopeFloor:
            let root = try await InjectorActor(modules: [ObjectionGraphs.Requests()])
            for _ in 0...iterations {
                sink(ObserverCost.timedFourTimes())
                sink(try await root.withScope { try await $0.get(Handler.self) })
            }
        case .requestThatBuildsNothing(let recorded):
            try await Self.requests(
                modules: [ObjectionGraphs.Requests(), ObserverCost.NothingScoped()],
                observer: recorded ? ObserverCost.RecordingObserver() : nil,
                iterations: iterations
            )
        case .requestReads(let scope):
            let root = try await InjectorActor(modules: [OneEngine(scope: scope)])
            _ = try await root.get(Engine.self)
            for _ in 0...iterations { sink(try await root.withScope { try await $0.get(Engine.self) }) }
        case .stampede(let waiters):
            for _ in 0...iterations { try await GatedStampede.run(waiters: waiters) }
        case .sharedTask(let waiters):
            for _ in 0...iterations { try await GatedStampede.runSharedTask(waiters: waiters) }
        }
    }

    private static func requests(
        modules: [any Module] = [ObjectionGraphs.Requests()],
        observer: (any InjectionObserver)?,
        iterations: Int
    ) async throws {
        let root = try await InjectorActor(modules: modules, observer: observer)
        for _ in 0...iterations { sink(try await root.withScope { try await $0.get(Handler.self) }) }
    }
}

/// `Engine` alone, in the given scope: the module of the `requestReads` paths.
private struct OneEngine: Module {
    let scope: Scope

    func configure(_ binder: Binder) {
        binder.bind(Engine.self).to { _ in Engine() }.inScope(scope)
    }
}
