import Testing

@testable import Objection

/// Binds `count` named aliases of `Engine`, `link0 -> link1 -> … -> link(count-1)`; the last is an
/// instance, or, with `closed`, an alias back to `link0`.
private func bindChain(_ binder: Binder, count: Int, closed: Bool = false) {
    for link in 0..<(count - 1) {
        binder.bind(Engine.self, named: "link\(link)").to(Engine.self, named: "link\(link + 1)")
    }
    if closed {
        binder.bind(Engine.self, named: "link\(count - 1)").to(Engine.self, named: "link0")
    } else {
        binder.bind(Engine.self, named: "link\(count - 1)").toInstance(Engine())
    }
}

/// An injector binding `count` named transient providers of `Engine`; `link(i)` gets `link(next(i))`,
/// or builds an `Engine` where `next` gives `nil`.
private func providerChain(
    count: Int,
    maxResolutionDepth: Int = InjectorActor.defaultMaxResolutionDepth,
    next: @escaping @Sendable (Int) -> Int?
) async throws -> InjectorActor {
    try await InjectorActor(
        modules: [
            TestModule { b in
                for link in 0..<count {
                    b.bind(Engine.self, named: "link\(link)").to { r in
                        guard let following = next(link) else { return Engine() }
                        return try await r.get(Engine.self, named: "link\(following)")
                    }
                }
            }
        ],
        maxResolutionDepth: maxResolutionDepth
    )
}

/// The number of edges a DOT or Mermaid graph draws, and of those drawn red and bold (on a cycle).
private func edgeCounts(ofDOT dot: String) -> (edges: Int, onCycle: Int) {
    let edges = dot.split(separator: "\n").filter { $0.contains(" -> ") }
    return (edges.count, edges.filter { $0.contains("penwidth=2") }.count)
}

/// Inputs whose size the user controls, 100,000 long: every walk over them is iterative or
/// bounded, so none exhausts the thread's stack, and each ends in a value or an error. They run
/// one at a time on a thread of their own, so that under a sanitizer they do not starve the
/// other suites.
@Suite("Very long chains neither crash nor hang", .serialized, .onItsOwnThread, .timeLimit(.minutes(5)))
struct LongChainTests {
    static let length = 100_000

    @Test("graph() of an injector over a 100,000-long alias chain draws every link")
    func graphOfInjector() async throws {
        let injector = try await makeInjector { bindChain($0, count: Self.length) }
        let dot = injector.graph()
        let counts = edgeCounts(ofDOT: dot)
        #expect(counts.edges == Self.length - 1)
        #expect(counts.onCycle == 0)
        let mermaid = injector.graph(.mermaid)
        #expect(mermaid.split(separator: "\n").filter { $0.contains(" --> ") }.count == Self.length - 1)
    }

    @Test("graph(of:) draws a 100,000-long cycle with every edge on it")
    func graphOfCycle() throws {
        let dot = try InjectorActor.graph(of: [TestModule { bindChain($0, count: Self.length, closed: true) }])
        let counts = edgeCounts(ofDOT: dot)
        #expect(counts.edges == Self.length)
        #expect(counts.onCycle == Self.length)
    }

    @Test("an injector over a 100,000-long cycle of aliases is refused with the cycle")
    func cycleIsRefused() async throws {
        let error = await injectionError {
            _ = try await makeInjector { bindChain($0, count: Self.length, closed: true) }
        }
        #expect(error?.code == .invalidConfiguration)
        let cycle = error?.problems.first { $0.code == .circularDependency }
        #expect(cycle?.path.count == Self.length + 1)
        #expect(cycle?.path.first == cycle?.path.last)
        // The message names both ends and stays short; the path keeps every key.
        #expect((cycle?.message.count ?? .max) < 2_000)
        #expect(cycle?.message.contains("99981 more") == true, "\(cycle?.message.prefix(300) ?? "")")
    }

    @Test("resolving past the depth limit along a 100,000-long chain is an error naming the limit")
    func resolutionStopsAtTheDepthLimit() async throws {
        let injector = try await makeInjector { bindChain($0, count: Self.length) }
        let error = await injectionError { _ = try await injector.get(Engine.self, named: "link0") }
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.path.first == BindingKey(Engine.self, named: "link0"))
        // The far end is in reach, and so is the chain's start from close to its end.
        _ = try await injector.get(Engine.self, named: "link\(Self.length - 1)")
        _ = try await injector.get(Engine.self, named: "link\(Self.length - 50)")
    }

    @Test("a 100,000-long chain of transient providers resolves when the depth limit allows it")
    func deepTransientChain() async throws {
        let length = Self.length
        let injector = try await providerChain(count: length, maxResolutionDepth: length + 1) { link in
            link == length - 1 ? nil : link + 1
        }
        _ = try await injector.get(Engine.self, named: "link0")
    }

    @Test(
        "each singleton of a 100,000-long chain of singletons that ends in a scoped key is refused, each with a short path"
    )
    func captiveAtTheEndOfALongChain() async throws {
        let length = Self.length
        let error = await injectionError {
            _ = try await makeInjector { b in
                for link in 0..<(length - 1) {
                    b.bind(Engine.self, named: "link\(link)").to(Engine.self, named: "link\(link + 1)").asSingleton()
                }
                b.bind(Engine.self, named: "link\(length - 1)").to(Engine.init).inScope(.scoped)
            }
        }
        #expect(error?.code == .scopeViolation)
        #expect(error?.problems.count == length - 1)
        let key = { (link: Int) in BindingKey(Engine.self, named: "link\(link)") }
        let first = error?.problems.first { $0.path.first == key(0) }
        #expect(first?.path == [key(0), key(1)])
        #expect(first?.message.contains("through singleton") == true, "\(first?.message ?? "")")
        let last = error?.problems.first { $0.path.first == key(length - 2) }
        #expect(last?.path == [key(length - 2), key(length - 1)])
    }

    @Test("a 100,000-long cycle of transient providers is a cycle error when the depth limit allows it")
    func deepCycleAtRuntime() async throws {
        let length = Self.length
        let injector = try await providerChain(count: length, maxResolutionDepth: 2 * length + 1) { link in
            (link + 1) % length
        }
        let error = await injectionError { _ = try await injector.get(Engine.self, named: "link0") }
        #expect(error?.code == .circularDependency)
    }

    @Test("a cycle longer than the steps checked at every step is still reported as a cycle, not past the limit")
    func longCycleBeforeTheLimit() async throws {
        // 3,000 steps around, starting 1,000 deep: the first repeat is at 4,001 of 4,096.
        let injector = try await providerChain(count: 4_000) { link in link == 3_999 ? 1_000 : link + 1 }
        let error = await injectionError { _ = try await injector.get(Engine.self, named: "link0") }
        #expect(error?.code == .circularDependency, "\(error?.code.description ?? "nothing")")
    }

    @Test("a chain of 100,000 nested child injectors resolves from its end and is released without a crash")
    func nestedChildren() async throws {
        let root = try await makeInjector { b in b.bind(Engine.self).to(Engine.init).asSingleton() }
        var leaf = root
        for level in 0..<Self.length {
            leaf = try await leaf.child(
                modules: level == Self.length / 2 ? [TestModule { b in b.bind(Wheel.self).to(Wheel.init) }] : [])
        }
        let fromLeaf = try await leaf.get(Engine.self)
        #expect(fromLeaf === (try await root.get(Engine.self)))
        _ = try await leaf.get(Wheel.self)
        await leaf.shutdown()
        // Dropping the only reference to the end of the chain releases all 100,000 injectors.
        leaf = root
        await root.shutdown()
    }

    @Test("100,000 request scopes nested in each other open, resolve and end")
    func nestedScopes() async throws {
        let injector = try await makeInjector { b in b.bind(Engine.self).to(Engine.init).inScope(.scoped) }
        func nest(_ scope: InjectorActor, _ remaining: Int) async throws -> Int {
            if remaining == 0 { return try await scope.get(Engine.self) === scope.get(Engine.self) ? 1 : 0 }
            return try await scope.withScope { inner in try await nest(inner, remaining - 1) }
        }
        #expect(try await nest(injector, Self.length) == 1)
    }

    @Test("100,000 bindings build, resolve, and give a child cheaply")
    func manyBindings() async throws {
        let injector = try await makeInjector { binder in
            for index in 0..<100_000 { binder.bind(Int.self, named: String(index)).toInstance(index) }
        }
        #expect(try await injector.get(Int.self, named: "99999") == 99_999)
        let child = try await injector.child(modules: [TestModule { $0.bind(Int.self, named: "0").toInstance(-1) }])
        #expect(try await child.get(Int.self, named: "0") == -1)
        #expect(child.table.bindings.count == 1)
    }

    @Test("a chain of 100,000 declared dependencies is checked without exhausting the stack")
    func veryDeepChain() async throws {
        let depth = 100_000
        let error = await injectionError {
            _ = try await InjectorActor(modules: [ChainModule(depth: depth, closesCycle: false, leavesEndUnbound: true)]
            )
        }
        #expect(
            error?.problems.map(\.message) == [
                "'Int named \"\(depth - 1)\"' is bound to 'Int named \"\(depth)\"', which is not bound"
            ])

        let cycle = await injectionError {
            _ = try await InjectorActor(modules: [ChainModule(depth: depth, closesCycle: true, leavesEndUnbound: false)]
            )
        }
        #expect(cycle?.problems.map(\.code) == [.circularDependency])
        #expect(cycle?.problems.first?.path.count == depth + 1)
    }
}
