import Testing

@testable import Objection

/// The ways a provider can reach another key: each one may join a construction in flight, so each
/// must go through the waits-for check (``WaitGraph``).
enum Way: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case get, lazy, factory, objectFactory, build

    var testDescription: String { rawValue }

    /// Reaches `T` through this way, from a provider's resolver.
    func reach<T: Sendable>(_ type: T.Type, with resolver: Resolver) async throws -> T {
        switch self {
        case .get: try await resolver.get(T.self)
        case .lazy: try await resolver.get(Lazy<T>.self).value
        case .factory: try await resolver.get(Factory<T>.self)()
        case .objectFactory: try await resolver.get(ObjectFactory.self).get(T.self)
        case .build: try await resolver.get(ObjectFactory.self).build { (value: T) in value }
        }
    }

    /// A way to reach `T` made now, in the calling task, from `injector`, to be used in another
    /// task: the handle itself, or for ``get`` the captured injector.
    func handle<T: Sendable>(to type: T.Type, from injector: InjectorActor) async throws -> Reach<T> {
        switch self {
        case .get: return Reach { try await injector.get(T.self) }
        case .lazy:
            let lazy = try await injector.get(Lazy<T>.self)
            return Reach { try await lazy.value }
        case .factory:
            let factory = try await injector.get(Factory<T>.self)
            return Reach { try await factory() }
        case .objectFactory:
            let objects = try await injector.get(ObjectFactory.self)
            return Reach { try await objects.get(T.self) }
        case .build:
            return Reach { try await injector.build { (value: T) in value } }
        }
    }
}

/// A way to reach a `T` made by ``Way/handle(to:from:)``, set once the injector exists.
final class Reach<T: Sendable>: Sendable {
    let body: @Sendable () async throws -> T
    init(_ body: @escaping @Sendable () async throws -> T) { self.body = body }
}

/// A slot for a ``Reach`` that providers read after the test has made it.
final class ReachSlot<T: Sendable>: Sendable {
    private let reach = Lock<Reach<T>?>(nil)

    func set(_ value: Reach<T>?) { reach.withLock { $0 = value } }

    func callAsFunction() async throws -> T {
        guard let body = reach.withLock({ $0?.body }) else { throw ProviderFailure(attempt: 0) }
        return try await body()
    }
}

/// The issue's reproduction: a singleton holds a `Lazy` handle whose target needs the singleton's
/// handle again.
final class Holder: Sendable {
    let lazy: Lazy<CycleA>
    init(lazy: Lazy<CycleA>) { self.lazy = lazy }
}

final class CycleA: Sendable {}

/// Expects every result to be a ``InjectionError/Code/circularDependency``.
private func expectCycles(_ results: [Result<Void, any Error>], sourceLocation: SourceLocation = #_sourceLocation) {
    for result in results {
        guard case .failure(let error) = result else {
            Issue.record("expected a cycle error, got a value", sourceLocation: sourceLocation)
            continue
        }
        #expect((error as? InjectionError)?.code == .circularDependency, "\(error)", sourceLocation: sourceLocation)
    }
}

/// Binds `NodeA` and `NodeB` so that each needs the other, `NodeA` through `reachB`; each waits
/// until the other has started, so both are in flight before either reaches the other.
private func bindCrossCycle(
    _ binder: Binder,
    scope: Scope,
    eager: Bool = false,
    reachB: @escaping @Sendable (Resolver) async throws -> NodeB
) {
    let aStarted = Gate()
    let bStarted = Gate()
    let a = binder.bind(NodeA.self).to { r in
        aStarted.open()
        await bStarted.wait()
        _ = try await reachB(r)
        return NodeA()
    }
    let b = binder.bind(NodeB.self).to { r in
        bStarted.open()
        await aStarted.wait()
        _ = try await r.get(NodeA.self)
        return NodeB()
    }
    if eager {
        a.asEagerSingleton()
        b.asEagerSingleton()
    } else {
        a.inScope(scope)
        b.inScope(scope)
    }
}

/// Gets `NodeA` and `NodeB` from `injector` in two tasks at once, within a deadline.
private func getBothConcurrently(from injector: InjectorActor) async throws -> [Result<Void, any Error>] {
    try await withDeadline {
        async let a = outcome { _ = try await injector.get(NodeA.self) }
        async let b = outcome { _ = try await injector.get(NodeB.self) }
        return await [a, b]
    }
}

@Suite("Every way of joining a construction in flight is checked for cycles", .hangLimit)
struct JoinCycleTests {
    @Test(
        "a cycle closed through a shared Lazy handle is an error, not a hang", arguments: [Scope.transient, .singleton])
    func lazyHandleCycle(scope: Scope) async throws {
        let injector = try await makeInjector { b in
            b.bind(Holder.self).to { r in Holder(lazy: try await r.get(Lazy<CycleA>.self)) }.asSingleton()
            b.bind(CycleA.self).to { r in
                _ = try await r.get(Holder.self).lazy.value
                return CycleA()
            }.inScope(scope)
        }
        let direct = try await withDeadline { await outcome { _ = try await injector.get(CycleA.self) } }
        let throughHandle = try await withDeadline {
            await outcome { _ = try await injector.get(Holder.self).lazy.value }
        }
        let again = try await withDeadline { await outcome { _ = try await injector.get(CycleA.self) } }
        expectCycles([direct, throughHandle, again])
        if case .failure(let error as InjectionError) = throughHandle {
            #expect(error.path.contains(BindingKey(Lazy<CycleA>.self)), "\(error.path)")
            #expect(error.path.contains(BindingKey(CycleA.self)), "\(error.path)")
        }
        _ = try await withDeadline { await injector.shutdown(within: nil) }
    }

    @Test("a cycle closed in the same task is an error", arguments: Way.allCases)
    func sameTask(way: Way) async throws {
        let injector = try await makeInjector { b in
            b.bind(NodeA.self).to { r in
                _ = try await way.reach(NodeB.self, with: r)
                return NodeA()
            }.asSingleton()
            b.bind(NodeB.self).to { r in
                _ = try await r.get(NodeA.self)
                return NodeB()
            }.asSingleton()
        }
        let result = try await withDeadline { await outcome { _ = try await injector.get(NodeA.self) } }
        expectCycles([result])
        _ = try await withDeadline { await injector.shutdown(within: nil) }
    }

    @Test("a cycle split across two tasks is an error for both", arguments: Way.allCases)
    func acrossTasks(way: Way) async throws {
        let injector = try await makeInjector { b in
            bindCrossCycle(b, scope: .singleton) { r in try await way.reach(NodeB.self, with: r) }
        }
        expectCycles(try await getBothConcurrently(from: injector))
        _ = try await withDeadline { await injector.shutdown(within: nil) }
    }

    @Test(
        "a cycle split across two tasks through calls with runtime arguments is an error for both",
        arguments: [Scope.singleton, .scoped])
    func argumentsAcrossTasks(scope: Scope) async throws {
        let aStarted = Gate()
        let bStarted = Gate()
        let injector = try await makeInjector { binder in
            binder.bind(NodeA.self).to(arguments: String.self) { r, _ in
                aStarted.open()
                await bStarted.wait()
                _ = try await r.get(NodeB.self, arguments: "b")
                return NodeA()
            }.inScope(scope)
            binder.bind(NodeB.self).to(arguments: String.self) { r, _ in
                bStarted.open()
                await aStarted.wait()
                _ = try await r.get(NodeA.self, arguments: "a")
                return NodeB()
            }.inScope(scope)
        }
        let results = try await injector.withScope { scope in
            try await withDeadline {
                async let a = outcome { _ = try await scope.get(NodeA.self, arguments: "a") }
                async let b = outcome { _ = try await scope.get(NodeB.self, arguments: "b") }
                return await [a, b]
            }
        }
        expectCycles(results)
        _ = try await withDeadline { await injector.shutdown(within: nil) }
    }

    @Test("a cycle through a handle made in one task and used in another is an error", arguments: Way.allCases)
    func handleFromAnotherTask(way: Way) async throws {
        let reachB = ReachSlot<NodeB>()
        let injector = try await makeInjector { b in
            bindCrossCycle(b, scope: .singleton) { _ in try await reachB() }
        }
        reachB.set(try await way.handle(to: NodeB.self, from: injector))
        // The handle holds the injector, whose binding holds the slot: empty it to break the cycle.
        defer { reachB.set(nil) }
        expectCycles(try await getBothConcurrently(from: injector))
        _ = try await withDeadline { await injector.shutdown(within: nil) }
    }

    @Test("a cycle between scoped instances built by two tasks of one request is an error", arguments: Way.allCases)
    func scopedAcrossTasks(way: Way) async throws {
        let injector = try await makeInjector { b in
            bindCrossCycle(b, scope: .scoped) { r in try await way.reach(NodeB.self, with: r) }
        }
        let results = try await injector.withScope { scope in try await getBothConcurrently(from: scope) }
        expectCycles(results)
    }

    @Test("eager singletons that need each other fail the start-up, not hang it", arguments: Way.allCases)
    func startup(way: Way) async throws {
        let result = try await withDeadline {
            await outcome {
                _ = try await makeInjector { b in
                    bindCrossCycle(b, scope: .singleton, eager: true) { r in try await way.reach(NodeB.self, with: r) }
                }
            }
        }
        expectCycles([result])
    }

    @Test("a derived injector's eager singletons that need each other fail its creation", arguments: Way.allCases)
    func derivedEagerBuild(way: Way) async throws {
        let root = try await makeInjector { _ in }
        let module = TestModule { b in
            bindCrossCycle(b, scope: .singleton, eager: true) { r in try await way.reach(NodeB.self, with: r) }
        }
        let child = try await withDeadline {
            await outcome { _ = try await root.child(modules: [module]) }
        }
        let derived = try await withDeadline {
            await outcome { _ = try await root.withModules([module]) }
        }
        expectCycles([child, derived])
        _ = try await withDeadline { await root.shutdown(within: nil) }
    }

    @Test("a Lazy handle started outside any construction, then joined from inside one, closes a cycle")
    func lazyJoinedFromAConstruction() async throws {
        // The handle's resolution is started by a task that builds nothing; it needs B, B needs
        // A, and A joins the handle's resolution in flight: A -> Lazy<B> -> B -> A.
        let lazyB = ReachSlot<NodeB>()
        let injector = try await makeInjector { b in
            bindCrossCycle(b, scope: .singleton) { _ in try await lazyB() }
        }
        lazyB.set(try await Way.lazy.handle(to: NodeB.self, from: injector))
        let results = try await withDeadline {
            async let handle = outcome { _ = try await lazyB() }
            async let a = outcome { _ = try await injector.get(NodeA.self) }
            return await [handle, a]
        }
        expectCycles(results)
        _ = try await withDeadline { await injector.shutdown(within: nil) }
    }

    @Test("constructions sharing one Lazy handle in flight are not a cycle")
    func sharedLazyIsNotACycle() async throws {
        let release = Gate()
        let engineBuilds = Counter()
        let engine = ReachSlot<Engine>()
        let injector = try await makeInjector { b in
            b.bind(Engine.self).to { _ in
                engineBuilds.increment()
                await release.wait()
                return Engine()
            }
            for name in ["a", "b"] {
                b.bind(Car.self, named: name).to { _ in Car(engine: try await engine(), wheel: Wheel()) }.asSingleton()
            }
        }
        engine.set(try await Way.lazy.handle(to: Engine.self, from: injector))
        let (a, b, direct) = try await withDeadline {
            async let a = injector.get(Car.self, named: "a")
            async let b = injector.get(Car.self, named: "b")
            async let direct = engine()
            await waitUntil { engineBuilds.value >= 1 }
            release.open()
            return try await (a, b, direct)
        }
        #expect(a.engine === direct)
        #expect(b.engine === direct)
        #expect(engineBuilds.value == 1)
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
        let results = try await withDeadline {
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
}
