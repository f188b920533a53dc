import Testing

@testable import Objection

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - A strict observer

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
    _ seconds: Int = 20,
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

final class SelfNeedy: PropertyInjectable, @unchecked Sendable {
    var other: SelfNeedy?
    init() {}
    static var injectedProperties: [InjectedProperty] { [.property(\SelfNeedy.other)] }
}

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

// MARK: - Tests

@Suite("Hostile", .timeLimit(.minutes(2)))
struct HostileTests {

    // MARK: Cancellation storms

    @Test(
        "1,000 gets of a slow singleton, half cancelled at random points: one construction, one instance",
        arguments: ObserverKind.allCases)
    func singletonCancellationStorm(kind: ObserverKind) async throws {
        let (observer, strict) = kind.make()
        let started = Gate()
        let release = Gate()
        let built = Counter()
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(Engine.self).to { _ in
                        built.increment()
                        started.open()
                        await release.wait()
                        return Engine()
                    }.asSingleton()
                }
            ],
            observer: observer
        )
        let results = try await bounded {
            var rng = SeededGenerator(seed: 7)
            let order = Array(0..<1000).shuffled(using: &rng)
            let cancelled = Set(order.prefix(500))
            var tasks: [Task<Engine, any Error>] = []
            for i in 0..<1000 {
                tasks.append(Task { try await injector.get(Engine.self) })
                // Some are cancelled before they even ask.
                if cancelled.contains(i), i % 3 == 0 { tasks[i].cancel() }
            }
            await started.wait()
            for (n, i) in order.prefix(500).enumerated() {
                tasks[i].cancel()
                if n % 7 == 0 { await Task.yield() }
            }
            release.open()
            var results: [(cancelled: Bool, result: Result<Engine, any Error>)] = []
            for (i, task) in tasks.enumerated() { results.append((cancelled.contains(i), await task.result)) }
            return results
        }
        var instances = Set<ObjectIdentifier>()
        var cancellations = 0
        for (wasCancelled, result) in results {
            switch result {
            case .success(let engine): instances.insert(ObjectIdentifier(engine))
            case .failure(let error):
                #expect(wasCancelled, "a task that was not cancelled failed: \(error)")
                #expect(error is CancellationError, "\(error)")
                cancellations += 1
            }
        }
        #expect(built.value == 1)
        #expect(instances.count == 1)
        let later = try await injector.get(Engine.self)
        #expect(instances == [ObjectIdentifier(later)])
        for o in strict {
            #expect(o.finalProblems() == [])
            #expect(o.count(\.startedKeys, of: Engine.self) == (o.successes ? 1 : 0))
            #expect(o.count(\.failedKeys, of: Engine.self) == 0)
            #expect(o.snapshot.failedGets.count == cancellations)
        }
    }

    @Test(
        "1,000 tasks of one request get a slow scoped instance, half cancelled, the builder among them",
        arguments: ObserverKind.allCases)
    func scopedCancellationStorm(kind: ObserverKind) async throws {
        let (observer, strict) = kind.make()
        let started = Gate()
        let release = Gate()
        let attempts = Counter()
        let pool = ResourcePool()
        let root = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(CountedResource.self).to { _ in
                        attempts.increment()
                        started.open()
                        await release.wait()
                        try Task.checkCancellation()
                        return pool.make()
                    }.inScope(.scoped)
                }
            ],
            observer: observer
        )
        let outcome = try await bounded {
            try await root.withScope(values: { _ in }) { scope in
                var rng = SeededGenerator(seed: 11)
                var tasks: [Task<CountedResource, any Error>] = []
                for _ in 0..<1000 { tasks.append(Task { try await scope.get(CountedResource.self) }) }
                await started.wait()
                // Cancel the first (most likely the builder) and 499 others at random.
                var victims = Set([0])
                while victims.count < 500 { victims.insert(Int.random(in: 0..<1000, using: &rng)) }
                for (n, i) in victims.sorted().enumerated() {
                    tasks[i].cancel()
                    if n % 5 == 0 { await Task.yield() }
                }
                release.open()
                var survivors = Set<ObjectIdentifier>()
                var failures: [String] = []
                for (i, task) in tasks.enumerated() {
                    switch await task.result {
                    case .success(let r): survivors.insert(ObjectIdentifier(r))
                    case .failure(let error):
                        if !victims.contains(i) || !(error is CancellationError) {
                            failures.append("task \(i) (cancelled: \(victims.contains(i))): \(error)")
                        }
                    }
                }
                return (survivors, failures)
            }
        }
        #expect(outcome.1 == [])
        #expect(outcome.0.count == 1, "the request's surviving tasks got \(outcome.0.count) instances")
        let made = pool.made
        #expect(made.count <= 1)
        for r in made { #expect(r.disposals.value == 1) }
        for o in strict {
            #expect(o.finalProblems() == [])
            let s = o.snapshot
            #expect(s.finishedKeys.count == (o.successes ? made.count : 0))
            for error in s.failedErrors { #expect(error is CancellationError, "\(error)") }
            if o.successes {
                #expect(s.startedKeys.count == s.finishedKeys.count + s.failedKeys.count)
                #expect(s.startedKeys.count == attempts.value)
            }
            #expect(s.disposed.count == (o.successes ? made.count : 0))
        }
    }

    @Test(
        "a provider failure reaches all 500 waiters, is reported once, and is not cached",
        arguments: ObserverKind.allCases)
    func failureReachesEveryWaiter(kind: ObserverKind) async throws {
        let (observer, strict) = kind.make()
        let started = Gate()
        let release = Gate()
        let attempts = Counter()
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(Engine.self).to { _ in
                        let attempt = attempts.increment()
                        if attempt == 1 {
                            started.open()
                            await release.wait()
                            throw ProviderFailure(attempt: attempt)
                        }
                        return Engine()
                    }.asSingleton()
                }
            ],
            observer: observer
        )
        let results = try await bounded {
            try await withThrowingTaskGroup(of: Result<Engine, any Error>.self) { group in
                for _ in 0..<500 { group.addTask { await outcome { try await injector.get(Engine.self) } } }
                await started.wait()
                await waitUntil { await injector.callersWaiting(for: BindingKey(Engine.self)) >= 500 }
                release.open()
                var all: [Result<Engine, any Error>] = []
                for try await r in group { all.append(r) }
                return all
            }
        }
        for r in results {
            #expect(throws: ProviderFailure(attempt: 1)) { try r.get() }
        }
        _ = try await injector.get(Engine.self)
        #expect(attempts.value == 2)
        for o in strict {
            #expect(o.finalProblems() == [])
            #expect(o.count(\.failedKeys, of: Engine.self) == 1)
            #expect(o.count(\.finishedKeys, of: Engine.self) == (o.successes ? 1 : 0))
            #expect(o.snapshot.failedGets.count == 500)
        }
    }

    // MARK: Shutdown races

    @Test(
        "shutdown racing 200 gets of a singleton in flight, and 10 other shutdowns: disposed once",
        arguments: ObserverKind.allCases)
    func shutdownRacesGets(kind: ObserverKind) async throws {
        let (observer, strict) = kind.make()
        let started = Gate()
        let release = Gate()
        let pool = ResourcePool()
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(Engine.self).to(Engine.init).asSingleton()
                    b.bind(CountedResource.self).to { r in
                        _ = try await r.get(Engine.self)
                        started.open()
                        await release.wait()
                        return pool.make()
                    }.asSingleton()
                }
            ],
            observer: observer
        )
        let (gets, shutdowns) = try await bounded {
            let gets = (0..<200).map { _ in Task { try await injector.get(CountedResource.self) } }
            await started.wait()
            let shutdowns = (0..<10).map { _ in Task { await injector.shutdown() } }
            await waitUntil { injector.isShutDown }
            release.open()
            var getResults: [Result<CountedResource, any Error>] = []
            for g in gets { getResults.append(await g.result) }
            var shutdownResults: [InjectionError?] = []
            for s in shutdowns { shutdownResults.append(await s.value) }
            return (getResults, shutdownResults)
        }
        for s in shutdowns { #expect(s == nil) }
        for g in gets {
            if case .failure(let error) = g {
                #expect((error as? InjectionError)?.code == .shutDown, "\(error)")
            }
        }
        #expect(pool.made.count == 1)
        for r in pool.made { #expect(r.disposals.value == 1) }
        let after = await injectionError { _ = try await injector.get(CountedResource.self) }
        #expect(after?.code == .shutDown)
        #expect(await injector.shutdown() == nil)
        for o in strict {
            #expect(o.finalProblems() == [])
            if o.successes {
                // Engine, then the resource: disposed in reverse order of construction.
                #expect(o.snapshot.disposed == [BindingKey(CountedResource.self)])
            }
        }
    }

    @Test(
        "root shutdown racing 200 request scopes in flight: every scoped instance disposed exactly once",
        arguments: [ObserverKind.none, .successes, .combinedMixed])
    func shutdownRacesScopes(kind: ObserverKind) async throws {
        let (observer, strict) = kind.make()
        let inside = Counter()
        let allInside = Gate()
        let release = Gate()
        let pool = ResourcePool()
        let singletons = ResourcePool()
        let root = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(CountedResource.self, named: "singleton").to { _ in singletons.make() }.asSingleton()
                    b.bind(CountedResource.self).to { r in
                        _ = try await r.get(CountedResource.self, named: "singleton")
                        return pool.make()
                    }.inScope(.scoped)
                }
            ],
            observer: observer
        )
        let results = try await bounded {
            let scopes = (0..<200).map { _ in
                Task {
                    try await root.withScope(values: { _ in }) { scope in
                        _ = try await scope.get(CountedResource.self)
                        if inside.increment() == 200 { allInside.open() }
                        await release.wait()
                        // May race the root's shutdown: a second resolution in the scope.
                        _ = try await scope.get(CountedResource.self)
                        _ = try await scope.get(CountedResource.self, named: "singleton")
                    }
                }
            }
            await allInside.wait()
            let shutdown = Task { await root.shutdown() }
            release.open()
            var results: [Result<Void, any Error>] = []
            for s in scopes { results.append(await s.result) }
            _ = await shutdown.value
            // Scopes opened after shutdown are refused.
            let late = await outcome { try await root.withScope(values: { _ in }) { _ in } }
            results.append(late)
            return results
        }
        for result in results.dropLast() {
            if case .failure(let error) = result {
                #expect((error as? InjectionError)?.code == .shutDown, "\(error)")
            }
        }
        if case .success = results.last! { Issue.record("a scope opened after shutdown ran") }
        #expect(pool.made.count == 200)
        for r in pool.made { #expect(r.disposals.value == 1) }
        #expect(singletons.made.count == 1)
        for r in singletons.made { #expect(r.disposals.value == 1) }
        for o in strict { #expect(o.finalProblems() == []) }
    }

    @Test("an observer that shuts the injector down from constructionStarted while 100 gets wait")
    func observerShutsDownMidConstruction() async throws {
        let spawned = SpawnedTasks()
        let box = InjectorBox()
        let pool = ResourcePool()
        let observer = StrictObserver(hook: { event, key in
            guard event == "started", key == BindingKey(CountedResource.self), let injector = box.injector else {
                return
            }
            spawned.add(Task { _ = await injector.shutdown() })
        })
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(CountedResource.self).to { _ in
                        await Task.yield()
                        return pool.make()
                    }.asSingleton()
                }
            ],
            observer: observer
        )
        box.injector = injector
        let results = try await bounded {
            let results = await withTaskGroup(of: Result<CountedResource, any Error>.self) { group in
                for _ in 0..<100 { group.addTask { await outcome { try await injector.get(CountedResource.self) } } }
                var all: [Result<CountedResource, any Error>] = []
                for await r in group { all.append(r) }
                return all
            }
            await spawned.drain()
            return results
        }
        for r in results {
            if case .failure(let error) = r { #expect((error as? InjectionError)?.code == .shutDown, "\(error)") }
        }
        #expect(pool.made.count <= 1)
        // Whatever was built is disposed once, perhaps in the background after shutdown returned.
        try await bounded { await waitUntil { pool.made.allSatisfy { $0.disposals.value == 1 } } }
        for r in pool.made { #expect(r.disposals.value == 1) }
        #expect(observer.finalProblems() == [])
    }

    // MARK: Cycles through every handle

    enum CycleRoute: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case direct, provider, factory, objectFactory, lazy, propertyInjection, scoped, injectorInsideProvider
        var testDescription: String { rawValue }
    }

    @Test(
        "a cycle through every handle ends in circularDependency naming the chain, and the injector carries on",
        arguments: CycleRoute.allCases, [ObserverKind.successes, .combinedMixed, .failuresOnly])
    func cycleThroughEveryHandle(route: CycleRoute, kind: ObserverKind) async throws {
        let (observer, strict) = kind.make()
        let box = InjectorBox()
        let module = TestModule { b in
            b.bind(Wheel.self).to(Wheel.init).asSingleton()
            switch route {
            case .direct:
                b.bind(NodeA.self).to { r in
                    _ = try await r.get(NodeB.self); return NodeA()
                }.asSingleton()
                b.bind(NodeB.self).to { r in
                    _ = try await r.get(NodeA.self); return NodeB()
                }.asSingleton()
            case .provider:
                b.bind(NodeA.self).to(provider: LoopProvider()).asSingleton()
                b.bind(NodeB.self).to { r in
                    _ = try await r.get(NodeA.self); return NodeB()
                }
            case .factory:
                b.bind(NodeA.self).to { r in
                    _ = try await r.get(Factory<NodeB>.self)(); return NodeA()
                }.asSingleton()
                b.bind(NodeB.self).to { r in
                    _ = try await r.get(Factory<NodeA>.self)(); return NodeB()
                }.asSingleton()
            case .objectFactory:
                b.bind(NodeA.self).to { r in
                    _ = try await r.get(ObjectFactory.self).get(NodeB.self); return NodeA()
                }
                .asSingleton()
                b.bind(NodeB.self).to { r in
                    _ = try await r.get(ObjectFactory.self).get(NodeA.self); return NodeB()
                }
            case .lazy:
                b.bind(NodeA.self).to { r in
                    _ = try await r.get(Lazy<NodeB>.self).value; return NodeA()
                }.asSingleton()
                b.bind(NodeB.self).to { r in
                    _ = try await r.get(Lazy<NodeA>.self).value; return NodeB()
                }
            case .propertyInjection:
                b.bind(SelfNeedy.self).to { r in
                    let object = SelfNeedy()
                    try await box.injector?.injectDependencies(into: object)
                    return object
                }.asSingleton()
                b.bind(NodeA.self).to { r in
                    _ = try await r.get(SelfNeedy.self); return NodeA()
                }
            case .scoped:
                b.bind(NodeA.self).to { r in
                    _ = try await r.get(NodeB.self); return NodeA()
                }.inScope(.scoped)
                b.bind(NodeB.self).to { r in
                    _ = try await r.get(NodeC.self); return NodeB()
                }.inScope(.scoped)
                b.bind(NodeC.self).to { r in
                    _ = try await r.get(NodeA.self); return NodeC()
                }.inScope(.scoped)
            case .injectorInsideProvider:
                // The provider calls the injector itself, not its resolver.
                b.bind(NodeA.self).to { _ in
                    _ = try await box.get(NodeB.self); return NodeA()
                }.asSingleton()
                b.bind(NodeB.self).to { _ in
                    _ = try await box.get(NodeA.self); return NodeB()
                }.asSingleton()
            }
        }
        let injector = try await InjectorActor(modules: [module], observer: observer)
        box.injector = injector
        let error = try await bounded {
            await injectionError {
                if route == .scoped {
                    try await injector.withScope(values: { _ in }) { _ = try await $0.get(NodeA.self) }
                } else {
                    _ = try await injector.get(NodeA.self)
                }
            }
        }
        #expect(error?.code == .circularDependency, "\(String(describing: error))")
        if let error {
            #expect(error.message.contains(" -> "), "\(error.message)")
            #expect(!error.path.isEmpty)
        }
        // It works normally afterwards.
        _ = try await injector.get(Wheel.self)
        // And again: the failure was not cached as something else.
        let again = try await bounded {
            await injectionError {
                if route == .scoped {
                    try await injector.withScope(values: { _ in }) { _ = try await $0.get(NodeA.self) }
                } else {
                    _ = try await injector.get(NodeA.self)
                }
            }
        }
        #expect(again?.code == .circularDependency)
        for o in strict {
            #expect(o.finalProblems() == [])
            #expect(o.snapshot.failedGets.count >= 2)
        }
    }

    @Test(
        "a three-way cycle of singletons started by three tasks at once ends in errors for all, with an observer",
        arguments: [ObserverKind.successes, .combinedMixed])
    func threeTaskCycle(kind: ObserverKind) async throws {
        let (observer, strict) = kind.make()
        let gates = [Gate(), Gate(), Gate()]
        let arrived = Counter()
        @Sendable func rendezvous() async {
            if arrived.increment() == 3 { for g in gates { g.open() } }
            await gates[0].wait()
        }
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(NodeA.self).to { r in
                        await rendezvous(); _ = try await r.get(NodeB.self); return NodeA()
                    }
                    .asSingleton()
                    b.bind(NodeB.self).to { r in
                        await rendezvous(); _ = try await r.get(NodeC.self); return NodeB()
                    }
                    .asSingleton()
                    b.bind(NodeC.self).to { r in
                        await rendezvous(); _ = try await r.get(NodeA.self); return NodeC()
                    }
                    .asSingleton()
                }
            ],
            observer: observer
        )
        let results = try await bounded {
            async let a = outcome { _ = try await injector.get(NodeA.self) }
            async let b = outcome { _ = try await injector.get(NodeB.self) }
            async let c = outcome { _ = try await injector.get(NodeC.self) }
            return await [a, b, c]
        }
        for r in results {
            guard case .failure(let error) = r else {
                Issue.record("a task of the cycle got a value")
                continue
            }
            #expect((error as? InjectionError)?.code == .circularDependency, "\(error)")
        }
        for o in strict { #expect(o.finalProblems() == []) }
    }

    @Test("a cycle closed through a child injector's override ends in an error, not a hang")
    func cycleThroughChild() async throws {
        let observer = StrictObserver()
        let childBox = InjectorBox()
        let root = try await InjectorActor(
            modules: [
                TestModule { b in
                    // Built by the root, but asks the child (directly) for B, which needs A again.
                    b.bind(NodeA.self).to { _ in
                        _ = try await childBox.get(NodeB.self); return NodeA()
                    }.asSingleton()
                    b.bind(NodeB.self).to(NodeB.init)
                }
            ],
            observer: observer
        )
        let child = try await root.child(modules: [
            TestModule { b in
                b.bind(NodeB.self).to { r in
                    _ = try await r.get(NodeA.self); return NodeB()
                }.asSingleton()
            }
        ])
        childBox.injector = child
        let error = try await bounded { await injectionError { _ = try await child.get(NodeA.self) } }
        #expect(error?.code == .circularDependency, "\(String(describing: error))")
        let error2 = try await bounded { await injectionError { _ = try await child.get(NodeB.self) } }
        #expect(error2?.code == .circularDependency, "\(String(describing: error2))")
        #expect(observer.finalProblems() == [])
    }

    // MARK: Large inputs

    @Test("100,000 bindings, 1,000 of them singletons, with an observer", .onItsOwnThread)
    func hundredThousandBindings() async throws {
        let observer = StrictObserver()
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    for i in 0..<100_000 {
                        let builder = b.bind(Int.self, named: "k\(i)")
                        if i % 100 == 0 {
                            builder.to { _ in i }.asSingleton()
                        } else {
                            builder.toInstance(i)
                        }
                    }
                }
            ],
            observer: observer
        )
        let sum = try await bounded(60) {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for i in stride(from: 0, to: 100_000, by: 97) {
                    group.addTask { try await injector.get(Int.self, named: "k\(i)") }
                }
                return try await group.reduce(0, +)
            }
        }
        #expect(sum == stride(from: 0, to: 100_000, by: 97).reduce(0, +))
        #expect(observer.finalProblems() == [])
        let missing = await injectionError { _ = try await injector.get(Int.self, named: "k100000") }
        #expect(missing?.code == .missingBinding)
    }

    @Test(
        "100,000 concurrent waiters on one cold singleton, with an observer: built once",
        arguments: [ObserverKind.successes, .combinedMixed])
    func hundredThousandWaiters(kind: ObserverKind) async throws {
        let (observer, strict) = kind.make()
        let started = Gate()
        let release = Gate()
        let built = Counter()
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(Engine.self).to { _ in
                        built.increment()
                        started.open()
                        await release.wait()
                        return Engine()
                    }.asSingleton()
                }
            ],
            observer: observer
        )
        let distinct = try await bounded(60) {
            try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<100_000 { group.addTask { ObjectIdentifier(try await injector.get(Engine.self)) } }
                await started.wait()
                release.open()
                var ids = Set<ObjectIdentifier>()
                for try await id in group { ids.insert(id) }
                return ids.count
            }
        }
        #expect(distinct == 1)
        #expect(built.value == 1)
        for o in strict {
            #expect(o.finalProblems() == [])
            #expect(o.snapshot.failedGets.isEmpty)
        }
    }

    @Test("request scopes nested 20,000 deep resolve, end and dispose in order")
    func deeplyNestedScopes() async throws {
        let observer = StrictObserver()
        let pool = ResourcePool()
        let root = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(Engine.self).to(Engine.init).asSingleton()
                    b.bind(CountedResource.self).to { _ in pool.make() }.inScope(.scoped)
                }
            ],
            observer: observer
        )
        @Sendable func nest(_ scope: InjectorActor, _ depth: Int) async throws -> Int {
            if depth == 0 {
                _ = try await scope.get(Engine.self)
                _ = try await scope.get(CountedResource.self)
                return 0
            }
            return try await scope.withScope(values: { _ in }) { inner in
                if depth % 1000 == 0 { _ = try await inner.get(CountedResource.self) }
                return try await nest(inner, depth - 1) + 1
            }
        }
        let depth = try await bounded(60) { try await nest(root, 20_000) }
        #expect(depth == 20_000)
        #expect(pool.made.count == 21)
        for r in pool.made { #expect(r.disposals.value == 1) }
        #expect(observer.snapshot.scopesOpened == 20_000)
        #expect(observer.snapshot.scopesEnded == 20_000)
        #expect(observer.finalProblems() == [])
    }

    @Test("child injectors chained 2,000 deep resolve the root's singleton and shut down")
    func deepChildChain() async throws {
        let observer = StrictObserver()
        let root = try await InjectorActor(
            modules: [TestModule { $0.bind(Engine.self).to(Engine.init).asSingleton() }], observer: observer)
        let engine = try await root.get(Engine.self)
        let leaf = try await bounded(60) {
            var current = root
            for _ in 0..<2_000 { current = try await current.child(modules: []) }
            return current
        }
        #expect(try await leaf.get(Engine.self) === engine)
        #expect(await leaf.shutdown() == nil)
        #expect(await root.shutdown() == nil)
        #expect(observer.finalProblems() == [])
    }

    // MARK: Misbehaving observers

    @Test(
        "an observer that gets from the injector, opens scopes and resolves again from every callback",
        arguments: [ObserverKind.successes, .failuresOnly, .combinedMixed])
    func reentrantObserver(kind: ObserverKind) async throws {
        let spawned = SpawnedTasks()
        let box = InjectorBox()
        let fanOut = Counter()
        let (observer, strict) = kind.make(hook: { event, key in
            guard let injector = box.injector, fanOut.increment() < 2_000 else { return }
            switch event {
            case "started", "finished", "failed":
                // Ask for what is being built, from inside its own construction's events.
                spawned.add(
                    Task {
                        _ = try? await injector.get(Engine.self)
                        _ = try? await injector.get(Wheel.self)
                    })
            case "disposed", "scopeEnded":
                spawned.add(Task { _ = try? await injector.withScope(values: { _ in }) { try await $0.get(Car.self) } })
            default: break
            }
        })
        let built = Counter()
        let fail = Lock(true)
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(Engine.self).to { _ in
                        built.increment()
                        await Task.yield()
                        return Engine()
                    }.asSingleton()
                    b.bind(Wheel.self).to { _ in
                        if fail.withLock({ $0 }) { throw ProviderFailure(attempt: 1) }
                        return Wheel()
                    }.inScope(.scoped)
                    b.bind(Car.self).to(Car.init).inScope(.scoped)
                    b.bind(CountedResource.self).to(CountedResource.init).inScope(.scoped)
                }
            ],
            observer: observer
        )
        box.injector = injector
        try await bounded {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<200 {
                    group.addTask {
                        if i == 100 { fail.withLock { $0 = false } }
                        _ = try? await injector.withScope(values: { _ in }) { scope in
                            _ = try await scope.get(CountedResource.self)
                            return try await scope.get(Car.self)
                        }
                    }
                }
                try await group.waitForAll()
            }
            await spawned.drain()
        }
        #expect(built.value == 1)
        #expect(await injector.shutdown() == nil)
        await spawned.drain()
        for o in strict { #expect(o.finalProblems() == []) }
    }

    @Test("a slow observer (busy for 200 µs per event) under 300 concurrent requests")
    func slowObserver() async throws {
        let observer = StrictObserver(hook: { _, _ in
            let until = ContinuousClock.now + .microseconds(200)
            while ContinuousClock.now < until {}
        })
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(Engine.self).to { _ in
                        await Task.yield(); return Engine()
                    }.asSingleton()
                    b.bind(Wheel.self).to(Wheel.init).inScope(.scoped)
                    b.bind(Car.self).to(Car.init).inScope(.scoped)
                }
            ],
            observer: observer
        )
        try await bounded(60) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<300 {
                    group.addTask { _ = try await injector.withScope(values: { _ in }) { try await $0.get(Car.self) } }
                }
                try await group.waitForAll()
            }
        }
        #expect(observer.count(\.startedKeys, of: Engine.self) == 1)
        #expect(observer.count(\.finishedKeys, of: Car.self) == 300)
        #expect(observer.finalProblems() == [])
    }

    @Test(
        "a combined observer: the failure-only half hears each failure once, the other each construction once, on both paths"
    )
    func combinedMixedOnBothPaths() async throws {
        let failures = StrictObserver(successes: false, scopes: false, standalone: false)
        let all = StrictObserver()
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(Engine.self).to(Engine.init).asSingleton()
                    // Synchronous path, fails in place.
                    b.bind(Wheel.self).to(ObserverTests.brokenWheel).inScope(.scoped)
                    // Asynchronous path, fails.
                    b.bind(Headlight.self).to { _ in
                        await Task.yield()
                        throw ProviderFailure(attempt: 2)
                    }.inScope(.scoped)
                    b.bind(ObserverTests.Leaky.self).to(ObserverTests.Leaky.init).inScope(.scoped)
                    b.bind(CountedResource.self).to(CountedResource.init).inScope(.scoped)
                }
            ],
            observer: CombinedObserver(failures, CombinedObserver(all))
        )
        _ = try await injector.get(Engine.self)
        for _ in 0..<3 {
            await #expect(throws: InjectionError.self) {
                try await injector.withScope(values: { _ in }) { scope in
                    _ = try await scope.get(CountedResource.self)
                    _ = try await scope.get(ObserverTests.Leaky.self)
                    await #expect(throws: ProviderFailure(attempt: 1)) { try await scope.get(Wheel.self) }
                    await #expect(throws: ProviderFailure(attempt: 2)) { try await scope.get(Headlight.self) }
                }
            }
        }
        for o in [failures, all] {
            #expect(o.finalProblems() == [])
            let s = o.snapshot
            #expect(s.failedKeys.filter { $0 == BindingKey(Wheel.self) }.count == 3)
            #expect(s.failedKeys.filter { $0 == BindingKey(Headlight.self) }.count == 3)
            #expect(s.failedKeys.count == 6)
            #expect(s.failedDisposals == Array(repeating: BindingKey(ObserverTests.Leaky.self), count: 3))
            #expect(s.failedGets.count == 6)
        }
        #expect(all.count(\.finishedKeys, of: CountedResource.self) == 3)
        #expect(failures.snapshot.startedKeys.isEmpty)
        #expect(failures.snapshot.disposed.isEmpty)
    }

    // MARK: Errors name types, never values

    @Test("errors about arguments, request values and conversions never show a value")
    func errorsNeverShowValues() async throws {
        final class Holder: Sendable {
            let secret: Secret
            init(secret: Secret) { self.secret = secret }
        }
        let injector = try await makeInjector { b in
            b.bind(Secret.self).toInstance(Secret())
            b.bind(Headlight.self).to(arguments: Int.self) { _, _ in Headlight(side: .left) }
            b.bind(Holder.self).to(Holder.init)
        }
        var errors: [InjectionError] = []
        if let e = await injectionError({ _ = try await injector.get(Headlight.self, arguments: Secret()) }) {
            errors.append(e)
        }
        if let e = await injectionError({ _ = try await injector.get(Headlight.self, arguments: 1, Secret()) }) {
            errors.append(e)
        }
        if let e = await injectionError({
            try await injector.withScope(values: { $0.bind(Secret.self, to: Secret()) }) { _ in }
        }) {
            errors.append(e)
        }
        if let e = await injectionError({ _ = try await injector.get(Holder.self, arguments: Secret()) }) {
            errors.append(e)
        }
        #expect(errors.count == 4)
        for e in errors {
            let text = "\(e) \(e.message) \(e.path) \(e.problems) \(String(describing: e.underlying))"
            #expect(!text.contains("SECRET"), "\(text)")
        }
    }

    // MARK: Bad input

    @Test("start(within:) with zero and negative deadlines neither hangs nor crashes")
    func oddDeadlines() async throws {
        for deadline in [Duration.zero, .seconds(-5), .nanoseconds(1), .seconds(-Int64.max)] {
            let injector = try await InjectorActor(
                modules: [
                    TestModule {
                        $0.bind(Engine.self).to { _ in
                            await Task.yield(); return Engine()
                        }.asEagerSingleton()
                    }
                ],
                startup: .deferred
            )
            let result = try await bounded { await outcome { try await injector.start(within: deadline) } }
            if case .failure(let error) = result {
                #expect((error as? InjectionError)?.code == .timedOut, "\(error)")
            }
            await injector.shutdown()
        }
    }

    @Test("start(within:) with a deadline of Int64.max seconds does not crash the process")
    func hugeDeadline() async throws {
        let injector = try await InjectorActor(
            modules: [TestModule { $0.bind(Engine.self).to(Engine.init).asEagerSingleton() }],
            startup: .deferred
        )
        try await injector.start(within: .seconds(Int64.max))
        _ = try await injector.get(Engine.self)
    }

    @Test("Startup.immediate(within:) with a deadline of Int64.max seconds does not crash the process")
    func hugeImmediateDeadline() async throws {
        let injector = try await InjectorActor(
            modules: [TestModule { $0.bind(Engine.self).to(Engine.init).asEagerSingleton() }],
            startup: .immediate(within: .seconds(Int64.max))
        )
        _ = try await injector.get(Engine.self)
    }

    @Test(
        "extreme maxResolutionDepth values still report cycles and depth, never trap",
        arguments: [Int.min, -1, 0, 1, 2, Int.max])
    func extremeDepthLimits(limit: Int) async throws {
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(NodeA.self).to { r in
                        _ = try await r.get(NodeB.self); return NodeA()
                    }.asSingleton()
                    b.bind(NodeB.self).to { r in
                        _ = try await r.get(NodeA.self); return NodeB()
                    }
                    b.bind(Engine.self).to { _ in Engine() }
                }
            ],
            observer: StrictObserver(),
            maxResolutionDepth: limit
        )
        _ = try await injector.get(Engine.self)
        let error = try await bounded { await injectionError { _ = try await injector.get(NodeA.self) } }
        #expect(
            error?.code == .circularDependency || error?.code == .depthLimitExceeded, "\(String(describing: error))")
    }

    @Test("a task that outlives its request scope gets shutDown from it, and from InjectorActor.current")
    func taskOutlivesScope() async throws {
        let release = Gate()
        let root = try await makeInjector { b in
            b.bind(CountedResource.self).to(CountedResource.init).inScope(.scoped)
            b.bind(Engine.self).to { _ in
                await Task.yield(); return Engine()
            }.inScope(.scoped)
        }
        let escaped = try await root.withScope(values: { _ in }) { scope in
            _ = try await scope.get(CountedResource.self)
            return Task {
                await release.wait()
                let direct = await outcome { try await scope.get(Engine.self) }
                let current = await outcome { try await InjectorActor.current?.get(CountedResource.self) }
                return (direct, current)
            }
        }
        release.open()
        let (direct, current) = try await bounded { await escaped.value }
        #expect(throws: InjectionError.self) { try direct.get() }
        #expect(throws: InjectionError.self) { try current.get() }
    }
}

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

@Suite("Hostile, part two", .timeLimit(.minutes(2)))
struct HostileTestsTwo {
    @Test("shutdown called from a task that is then cancelled still disposes in reverse order of construction")
    func cancelledShutdownCaller() async throws {
        let log = Log()
        let started = Gate()
        let release = Gate()
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(Resource.self, named: "B").to { _ in Resource("B", log: log) }.asSingleton()
                    b.bind(Resource.self, named: "A").to { r in
                        _ = try await r.get(Resource.self, named: "B")
                        started.open()
                        await release.wait()
                        return Resource("A", log: log)
                    }.asSingleton()
                }
            ],
            observer: StrictObserver()
        )
        let get = Task { try await injector.get(Resource.self, named: "A") }
        await started.wait()
        let shutdown = Task { await injector.shutdown() }
        await waitUntil { injector.isShutDown }
        shutdown.cancel()
        _ = try await bounded { await shutdown.value }
        release.open()
        _ = await get.result
        // Whatever happens in the background, give it a bounded chance to finish.
        try await bounded { await waitUntil { log.values.count == 2 } }
        #expect(log.values == ["A", "B"], "A was built from B; B must outlive it")
    }

    @Test("a dispose hook that awaits its own injector's shutdown does not hang")
    func disposeHookCallsShutdown() async throws {
        let box = InjectorBox()
        let injector = try await makeInjector { b in
            b.bind(Engine.self).to(Engine.init).asSingleton().onDispose { _ in
                _ = await box.injector?.shutdown()
            }
        }
        box.injector = injector
        _ = try await injector.get(Engine.self)
        let result = await outcome { try await bounded(10) { await injector.shutdown() } }
        if case .failure(let error) = result { Issue.record("\(error)") }
    }

    @Test("a singleton provider that shuts its own injector down does not hang its get")
    func providerCallsShutdown() async throws {
        let box = InjectorBox()
        let injector = try await makeInjector { b in
            b.bind(Engine.self).to { _ in
                _ = await box.injector?.shutdown()
                return Engine()
            }.asSingleton()
        }
        box.injector = injector
        let result = await outcome { try await bounded(10) { try await injector.get(Engine.self) } }
        // The construction finishes after the shutdown it started: its value is refused.
        guard case .failure(let error) = result else {
            Issue.record("got a value from a shut-down injector")
            return
        }
        #expect((error as? InjectionError)?.code == .shutDown, "\(error)")
    }

    @Test("a scoped provider that awaits its scope's end does not hang")
    func scopedProviderAwaitsScopeShutdown() async throws {
        let injector = try await makeInjector { b in
            b.bind(Engine.self).to { _ in
                _ = await InjectorActor.current?.shutdown()
                return Engine()
            }.inScope(.scoped)
        }
        let result = await outcome {
            try await bounded(10) { try await injector.withScope(values: { _ in }) { try await $0.get(Engine.self) } }
        }
        guard case .failure(let error) = result else {
            Issue.record("got a value from an ended scope")
            return
        }
        #expect((error as? InjectionError)?.code == .shutDown, "\(error)")
    }

    @Test("awakeFromInjection asking for its own singleton is a cycle error, not a hang")
    func awakeAsksForItself() async throws {
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(Engine.self).to(Engine.init)
                    b.bind(Awakener.self).to(Awakener.init).asSingleton()
                }
            ],
            observer: StrictObserver()
        )
        Awakener.box.injector = injector
        let error = try await bounded(10) { await injectionError { _ = try await injector.get(Awakener.self) } }
        #expect(error?.code == .circularDependency)
    }

    @Test("a decorator asking the injector for the key it decorates is a cycle error, not a hang")
    func decoratorAsksForItself() async throws {
        let box = InjectorBox()
        let injector = try await makeInjector { b in
            b.bind(Engine.self).to(Engine.init).asSingleton()
            b.decorate(Engine.self) { _, engine in
                _ = try await box.get(Engine.self)
                return engine
            }
        }
        box.injector = injector
        let error = try await bounded(10) { await injectionError { _ = try await injector.get(Engine.self) } }
        #expect(error?.code == .circularDependency)
    }

    @Test("derived injectors keep the observer's answer to observesSuccesses")
    func derivedKeepsAnswer() async throws {
        let observer = FlippingObserver()
        let root = try await InjectorActor(
            modules: [TestModule { $0.bind(Engine.self).to(Engine.init).asSingleton() }], observer: observer)
        let derived = try await root.withModules([])
        let child = try await root.child(modules: [])
        _ = try await root.get(Engine.self)
        _ = try await derived.get(Engine.self)
        _ = try await child.get(Engine.self)
        #expect(
            observer.started.value == 2,
            "root and derived each built one Engine; derived was heard? asked \(observer.asked.value) times")
    }

    @Test("1,000 first uses of a slow Lazy handle, half cancelled: one value")
    func lazyCancellationStorm() async throws {
        let started = Gate()
        let release = Gate()
        let built = Counter()
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(Engine.self).to { _ in
                        built.increment()
                        started.open()
                        await release.wait()
                        return Engine()
                    }
                }
            ],
            observer: StrictObserver()
        )
        let lazy = try await injector.get(Lazy<Engine>.self)
        let results = try await bounded {
            let tasks = (0..<1000).map { _ in Task { try await lazy.value } }
            await started.wait()
            for i in stride(from: 0, to: 1000, by: 2) { tasks[i].cancel() }
            release.open()
            var out: [(Int, Result<Engine, any Error>)] = []
            for (i, t) in tasks.enumerated() { out.append((i, await t.result)) }
            return out
        }
        var ids = Set<ObjectIdentifier>()
        for (i, r) in results {
            switch r {
            case .success(let e): ids.insert(ObjectIdentifier(e))
            case .failure(let error):
                #expect(i % 2 == 0 && error is CancellationError, "task \(i): \(error)")
            }
        }
        #expect(ids.count == 1)
        #expect(built.value == 1)
    }

    @Test(
        "shutdown racing a deferred start of 50 slow eager singletons, observed: no hang, each built one disposed once")
    func shutdownRacesStartup() async throws {
        let observer = StrictObserver()
        let pool = ResourcePool()
        let release = Gate()
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    for i in 0..<50 {
                        b.bind(CountedResource.self, named: "r\(i)").to { _ in
                            await release.wait()
                            return pool.make()
                        }.asEagerSingleton()
                    }
                }
            ],
            startup: .deferred,
            observer: observer
        )
        let start = Task { try await injector.start(within: .seconds(30)) }
        let shutdown = Task { await injector.shutdown() }
        release.open()
        let started = try await bounded { await start.result }
        _ = try await bounded { await shutdown.value }
        if case .failure(let error) = started {
            #expect((error as? InjectionError)?.code == .shutDown, "\(error)")
        }
        try await bounded { await waitUntil { pool.made.allSatisfy { $0.disposals.value == 1 } } }
        for r in pool.made { #expect(r.disposals.value == 1) }
        let s = observer.snapshot
        #expect(s.startups.count <= 1)
        #expect(observer.finalProblems() == [])
    }

    @Test("a request whose task is cancelled while another task of it builds a scoped instance")
    func cancelledRequestWithEscapedBuilder() async throws {
        let started = Gate()
        let release = Gate()
        let pool = ResourcePool()
        let observer = StrictObserver()
        let root = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(CountedResource.self).to { _ in
                        started.open()
                        await release.wait()
                        return pool.make()
                    }.inScope(.scoped)
                }
            ],
            observer: observer
        )
        let escapedBox = Lock<Task<Result<CountedResource, any Error>, Never>?>(nil)
        let request = Task {
            try await root.withScope(values: { _ in }) { scope in
                escapedBox.withLock { $0 = Task { await outcome { try await scope.get(CountedResource.self) } } }
                await started.wait()
                _ = try await scope.get(CountedResource.self)
            }
        }
        await started.wait()
        request.cancel()
        let requestResult = try await bounded { await request.result }
        release.open()
        let escaped = try await bounded { await escapedBox.withLock { $0 }!.value }
        if case .success = requestResult { Issue.record("the cancelled request's get should have left") }
        _ = escaped
        try await bounded { await waitUntil { pool.made.allSatisfy { $0.disposals.value == 1 } } }
        #expect(pool.made.count <= 1)
        for r in pool.made { #expect(r.disposals.value == 1) }
        #expect(observer.finalProblems() == [])
    }
}

@Sendable func hostileCar(engine: Engine, wheel: Wheel) -> Car { Car(engine: engine, wheel: wheel) }

@Suite("Hostile, part three", .timeLimit(.minutes(3)))
struct HostileTestsThree {
    @Test(
        "1,000 tasks of one request race the synchronous and asynchronous paths for one scoped chain: each heard once")
    func syncAsyncRaceInOneRequest() async throws {
        let observer = StrictObserver()
        let root = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(Engine.self).to { _ in
                        await Task.yield(); return Engine()
                    }.asSingleton()
                    b.bind(Wheel.self).to(Wheel.init).inScope(.scoped)
                    b.bind(Car.self).to(hostileCar).inScope(.scoped)
                }
            ],
            observer: observer
        )
        for _ in 0..<5 {
            let distinct = try await bounded {
                try await root.withScope(values: { _ in }) { scope in
                    try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
                        for _ in 0..<1000 { group.addTask { ObjectIdentifier(try await scope.get(Car.self)) } }
                        var ids = Set<ObjectIdentifier>()
                        for try await id in group { ids.insert(id) }
                        return ids.count
                    }
                }
            }
            #expect(distinct == 1)
        }
        #expect(observer.count(\.startedKeys, of: Engine.self) == 1)
        #expect(observer.count(\.startedKeys, of: Car.self) == 5)
        #expect(observer.count(\.startedKeys, of: Wheel.self) == 5)
        #expect(observer.finalProblems() == [])
    }

    @Test("a production startup of a 3,000-long chain of singletons, observed: one tree under the startup")
    func productionChainTree() async throws {
        let observer = StrictObserver()
        let n = 3_000
        let injector = try await bounded(60) {
            try await InjectorActor(
                modules: [
                    TestModule { b in
                        for i in 0..<n {
                            b.bind(Int.self, named: "c\(i)").to { r in
                                i == n - 1 ? i : try await r.get(Int.self, named: "c\(i + 1)") + 0 * i
                            }.asSingleton()
                        }
                    }
                ],
                stage: .production,
                observer: observer
            )
        }
        #expect(try await injector.get(Int.self, named: "c0") == n - 1)
        let s = observer.snapshot
        #expect(s.startups.count == 1)
        #expect(s.started.count == n)
        #expect(observer.finalProblems() == [])
        // Every construction's parent is a construction of the chain or the startup.
        for c in s.started.values {
            if let p = c.parentID { #expect(s.started[p] != nil || s.startups.contains(p)) }
        }
        await injector.shutdown()
    }

    @Test("a provider awaiting a detached task that resolves its own key through the resolver: cycle error")
    func detachedTaskThroughResolver() async throws {
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(NodeA.self).to { r in
                        try await Task.detached { _ = try await r.get(NodeA.self) }.value
                        return NodeA()
                    }.asSingleton()
                }
            ],
            observer: StrictObserver()
        )
        let error = try await bounded(10) { await injectionError { _ = try await injector.get(NodeA.self) } }
        #expect(error?.code == .circularDependency)
    }

    @Test("request scopes nested 100,000 deep", .onItsOwnThread)
    func hundredThousandNestedScopes() async throws {
        let root = try await InjectorActor(
            modules: [TestModule { $0.bind(CountedResource.self).to(CountedResource.init).inScope(.scoped) }],
            observer: StrictObserver()
        )
        @Sendable func nest(_ scope: InjectorActor, _ depth: Int) async throws -> Int {
            if depth == 0 { _ = try await scope.get(CountedResource.self); return 0 }
            return try await scope.withScope(values: { _ in }) { try await nest($0, depth - 1) + 1 }
        }
        #expect(try await bounded(120) { try await nest(root, 100_000) } == 100_000)
    }

    @Test("child injectors chained 100,000 deep", .onItsOwnThread)
    func hundredThousandChildren() async throws {
        let root = try await InjectorActor(
            modules: [TestModule { $0.bind(Engine.self).to(Engine.init).asSingleton() }], observer: StrictObserver())
        var current: InjectorActor? = root
        for _ in 0..<100_000 { current = try await current!.child(modules: []) }
        _ = try await current!.get(Engine.self)
        current = nil
    }
}
