import Testing

@testable import Objection

/// Records every event and checks, as they arrive, what the observer contract promises: each
/// construction starts once, ends once (finished or failed) after it started, names as parent a
/// construction or startup heard of before it, and never reports a negative duration.
final class StrictObserver: InjectionObserver {
    struct State {
        var started: [ObservedConstruction.ID: ObservedConstruction] = [:]
        var ended: [ObservedConstruction.ID: String] = [:]
        var startups: Set<ObservedConstruction.ID> = []
        var startedKeys: [BindingKey] = []
        var finishedKeys: [BindingKey] = []
        var failedKeys: [BindingKey] = []
        var failedErrors: [any Error] = []
        var failedGets: [(key: BindingKey, error: any Error)] = []
        var disposed: [BindingKey] = []
        var failedDisposals: [BindingKey] = []
        var scopesOpened = 0
        var scopesEnded = 0
        var problems: [String] = []
    }

    let state = Lock(State())
    let successes: Bool
    let scopes: Bool
    /// Called (outside the lock) from every callback, to misbehave.
    let hook: (@Sendable (String, BindingKey?) -> Void)?
    /// Whether it is the injector's observer itself, not one inside a ``CombinedObserver``: a
    /// failure-only observer inside a combination hears parents (documented).
    let standalone: Bool

    init(
        successes: Bool = true, scopes: Bool = true, standalone: Bool = true,
        hook: (@Sendable (String, BindingKey?) -> Void)? = nil
    ) {
        self.standalone = standalone
        self.successes = successes
        self.scopes = scopes
        self.hook = hook
    }

    var observesSuccesses: Bool { successes }
    var observesScopes: Bool { scopes }

    var problems: [String] { state.withLock { $0.problems } }
    var snapshot: State { state.withLock { $0 } }

    func constructionStarted(_ construction: ObservedConstruction) {
        state.withLock { s in
            if !successes { s.problems.append("a failure-only observer heard a start of \(construction)") }
            if s.started[construction.id] != nil { s.problems.append("\(construction) started twice") }
            if let parent = construction.parentID, s.started[parent] == nil, !s.startups.contains(parent) {
                s.problems.append("\(construction) names an unknown parent \(parent)")
            }
            s.started[construction.id] = construction
            s.startedKeys.append(construction.key)
        }
        hook?("started", construction.key)
    }

    func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
        state.withLock { s in
            if !successes { s.problems.append("a failure-only observer heard a finish of \(construction)") }
            if s.started[construction.id] == nil { s.problems.append("\(construction) finished without a start") }
            if let previous = s.ended[construction.id] {
                s.problems.append("\(construction) finished after it \(previous)")
            }
            if duration < .zero { s.problems.append("\(construction) negative duration") }
            s.ended[construction.id] = "finished"
            s.finishedKeys.append(construction.key)
        }
        hook?("finished", construction.key)
    }

    func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
        state.withLock { s in
            if successes, s.started[construction.id] == nil {
                s.problems.append("\(construction) failed without a start")
            }
            if !successes, standalone, construction.parentID != nil {
                s.problems.append("a failure-only observer got a parent for \(construction)")
            }
            if let previous = s.ended[construction.id] {
                s.problems.append("\(construction) failed after it \(previous)")
            }
            if duration < .zero { s.problems.append("\(construction) negative duration") }
            s.ended[construction.id] = "failed"
            s.failedKeys.append(construction.key)
            s.failedErrors.append(error)
        }
        hook?("failed", construction.key)
    }

    func startupStarted(_ id: ObservedConstruction.ID, singletons: Int) {
        state.withLock { s in
            if s.startups.contains(id) || s.started[id] != nil { s.problems.append("startup id \(id) reused") }
            s.startups.insert(id)
        }
        hook?("startupStarted", nil)
    }

    func startupFinished(_ id: ObservedConstruction.ID, duration: Duration, error: (any Error)?) {
        state.withLock { s in
            if !s.startups.contains(id) { s.problems.append("startup \(id) finished without a start") }
        }
        hook?("startupFinished", nil)
    }

    func disposed(_ key: BindingKey, duration: Duration, error: (any Error)?) {
        state.withLock { s in
            if error == nil, !successes { s.problems.append("a failure-only observer heard a disposal of \(key)") }
            if error == nil { s.disposed.append(key) } else { s.failedDisposals.append(key) }
        }
        hook?("disposed", key)
    }

    func resolutionFailed(_ key: BindingKey, error: any Error) {
        state.withLock { $0.failedGets.append((key, error)) }
        hook?("getFailed", key)
    }

    func scopeOpened() {
        state.withLock { $0.scopesOpened += 1 }
        hook?("scopeOpened", nil)
    }

    func scopeEnded(_ outcome: ScopeOutcome) {
        state.withLock { $0.scopesEnded += 1 }
        hook?("scopeEnded", nil)
    }

    /// Problems plus every construction still open: once the work is done, none may be.
    func finalProblems() -> [String] {
        state.withLock { s in
            var all = s.problems
            if successes {
                for (id, construction) in s.started where s.ended[id] == nil {
                    all.append("\(construction) never ended")
                }
            }
            return all
        }
    }

    func count(_ keys: KeyPath<State, [BindingKey]>, of type: Any.Type, named name: String? = nil) -> Int {
        let wanted = BindingKey(type, named: name)
        return state.withLock { $0[keyPath: keys].filter { $0 == wanted }.count }
    }
}

/// How a test observes its injector.
enum ObserverKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case none, successes, failuresOnly, combinedMixed, combinedFailuresOnly

    var testDescription: String { rawValue }

    /// The observer to pass, and the strict observers inside it to check afterwards.
    func make(hook: (@Sendable (String, BindingKey?) -> Void)? = nil) -> (
        observer: (any InjectionObserver)?, strict: [StrictObserver]
    ) {
        switch self {
        case .none: return (nil, [])
        case .successes:
            let o = StrictObserver(hook: hook)
            return (o, [o])
        case .failuresOnly:
            let o = StrictObserver(successes: false, scopes: false, hook: hook)
            return (o, [o])
        case .combinedMixed:
            let failures = StrictObserver(successes: false, scopes: false, standalone: false, hook: hook)
            let all = StrictObserver(successes: true, scopes: true)
            return (CombinedObserver(failures, all, ObserverTests.Silent()), [failures, all])
        case .combinedFailuresOnly:
            let a = StrictObserver(successes: false, scopes: false, standalone: false, hook: hook)
            let b = StrictObserver(successes: false, scopes: true, standalone: false)
            return (CombinedObserver(a, CombinedObserver(b)), [a, b])
        }
    }
}

/// Races `operation` against a 20 s deadline; a hang fails the test with ``Hung``.
func bounded<T: Sendable>(
    _ seconds: Int = 60,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withDeadline(seconds: seconds, operation)
}

/// A set of tasks started from observer callbacks, awaited at the end of a test.
final class SpawnedTasks: Sendable {
    private let tasks = Lock<[Task<Void, Never>]>([])
    func add(_ task: Task<Void, Never>) { tasks.withLock { $0.append(task) } }
    func drain() async {
        while true {
            let batch = tasks.withLock { t in
                defer { t = [] }
                return t
            }
            if batch.isEmpty { return }
            for task in batch { await task.value }
        }
    }
}

/// Instances of a disposable type, to check each was disposed exactly once.
final class ResourcePool: Sendable {
    private let all = Lock<[CountedResource]>([])
    func make() -> CountedResource {
        let resource = CountedResource()
        all.withLock { $0.append(resource) }
        return resource
    }
    var made: [CountedResource] { all.withLock { $0 } }
}

/// A property-injected object that needs another of its own type: a cycle through property injection.
final class SelfNeedy: PropertyInjectable, @unchecked Sendable {
    var other: SelfNeedy?
    init() {}
    static var injectedProperties: [InjectedProperty] { [.property(\SelfNeedy.other)] }
}

/// A provider of `NodeA` that asks for `NodeB`: one half of a cycle through a ``Provider``.
struct LoopProvider: Provider {
    func provide(_ resolver: Resolver) async throws -> NodeA {
        _ = try await resolver.get(NodeB.self)
        return NodeA()
    }
}

/// A value whose description is a secret: an error must never show it.
struct Secret: Sendable, CustomStringConvertible {
    let text = "SECRET-9f3a"
    var description: String { text }
}

/// An object whose `awakeFromInjection()` asks the injector in `box` for itself: a cycle through the awake hook.
final class Awakener: PropertyInjectable, @unchecked Sendable {
    static let box = InjectorBox()
    var engine: Engine?
    init() {}
    static var injectedProperties: [InjectedProperty] { [.property(\Awakener.engine)] }
    func awakeFromInjection() async throws { _ = try await Self.box.get(Awakener.self) }
}

/// An observer whose `observesSuccesses` answers `true` once, then `false`.
final class FlippingObserver: InjectionObserver {
    let asked = Counter()
    let started = Counter()
    var observesSuccesses: Bool { asked.increment() == 1 }
    func constructionStarted(_ construction: ObservedConstruction) { started.increment() }
}

/// Builds a `Car` from its engine and wheel: a plain `@Sendable` function, for an autowired binding.
@Sendable func hostileCar(engine: Engine, wheel: Wheel) -> Car { Car(engine: engine, wheel: wheel) }

/// A slow `Engine` the test controls: its provider counts its builds, opens `started` and waits
/// for `release`.
struct GatedEngine: Sendable {
    let started = Gate()
    let release = Gate()
    let built = Counter()

    /// An injector binding `Engine` to the gated provider, a singleton or (`singleton: false`) a
    /// transient, reporting to `observer`.
    func injector(singleton: Bool = true, observer: (any InjectionObserver)?) async throws -> InjectorActor {
        let (started, release, built) = (started, release, built)
        return try await InjectorActor(
            modules: [
                TestModule { b in
                    let binding = b.bind(Engine.self).to { _ in
                        built.increment()
                        started.open()
                        await release.wait()
                        return Engine()
                    }
                    if singleton { binding.asSingleton() }
                }
            ],
            observer: observer
        )
    }
}
