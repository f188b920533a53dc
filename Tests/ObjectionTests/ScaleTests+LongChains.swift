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

/// `depth` named `Int` keys, each `n` declared as needing `n + 1`. The last one needs the first
/// (a cycle), nothing (a chain), or an unbound key.
struct ChainModule: Module {
    let depth: Int
    let closesCycle: Bool
    let leavesEndUnbound: Bool

    func configure(_ binder: Binder) {
        for level in 0..<depth {
            let next: Int? = level + 1 < depth ? level + 1 : (closesCycle ? 0 : (leavesEndUnbound ? depth : nil))
            guard let next else {
                binder.bind(Int.self, named: "\(level)").toInstance(level)
                continue
            }
            binder.bind(Int.self, named: "\(level)").to(Int.self, named: "\(next)")
        }
    }
}

/// `depth` named `Int` keys, each `n` an alias of `n + 1`; the first is a singleton, so the captive
/// check starts its walk there.
struct SingletonHeadedChain: Module {
    let depth: Int
    var headIsSingleton = true

    func configure(_ binder: Binder) {
        for level in 0..<depth {
            guard level + 1 < depth else {
                binder.bind(Int.self, named: "\(level)").toInstance(level)
                continue
            }
            let alias = binder.bind(Int.self, named: "\(level)").to(Int.self, named: "\(level + 1)")
            if level == 0 && headIsSingleton { alias.asSingleton() }
        }
    }
}

extension ScaleTests {
    /// Inputs whose size the user controls, 100,000 long: every walk over them is iterative or
    /// bounded, so none exhausts the thread's stack, and each ends in a value or an error. They run
    /// one at a time on a thread of their own, so that under a sanitizer they do not starve one
    /// another; the 100,000-long ones run only with `OBJECTION_SCALE_TESTS=1` (``ScaleTests``).
    @Suite("Very long chains neither crash nor hang", .serialized, .onItsOwnThread)
    struct LongChains {
        static let length = 100_000

        @Test("graph() of an injector over a 100,000-long alias chain draws every link", .scale)
        func graphOfInjector() async throws {
            let injector = try await makeInjector { bindChain($0, count: Self.length) }
            let dot = injector.graph()
            let counts = edgeCounts(ofDOT: dot)
            #expect(counts.edges == Self.length - 1)
            #expect(counts.onCycle == 0)
            let mermaid = injector.graph(.mermaid)
            #expect(mermaid.split(separator: "\n").filter { $0.contains(" --> ") }.count == Self.length - 1)
        }

        @Test("graph(of:) draws a 100,000-long cycle with every edge on it", .scale)
        func graphOfCycle() throws {
            let dot = try InjectorActor.graph(of: [TestModule { bindChain($0, count: Self.length, closed: true) }])
            let counts = edgeCounts(ofDOT: dot)
            #expect(counts.edges == Self.length)
            #expect(counts.onCycle == Self.length)
        }

        @Test("an injector over a 100,000-long cycle of aliases is refused with the cycle", .scale)
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

        @Test("resolving past the depth limit along a 100,000-long chain is an error naming the limit", .scale)
        func resolutionStopsAtTheDepthLimit() async throws {
            let injector = try await makeInjector { bindChain($0, count: Self.length) }
            let error = await injectionError { _ = try await injector.get(Engine.self, named: "link0") }
            #expect(error?.code == .depthLimitExceeded)
            #expect(error?.path.first == BindingKey(Engine.self, named: "link0"))
            // The far end is in reach, and so is the chain's start from close to its end.
            _ = try await injector.get(Engine.self, named: "link\(Self.length - 1)")
            _ = try await injector.get(Engine.self, named: "link\(Self.length - 50)")
        }

        @Test("a 100,000-long chain of transient providers resolves when the depth limit allows it", .scale)
        func deepTransientChain() async throws {
            let length = Self.length
            let injector = try await providerChain(count: length, maxResolutionDepth: length + 1) { link in
                link == length - 1 ? nil : link + 1
            }
            _ = try await injector.get(Engine.self, named: "link0")
        }

        @Test(
            "each singleton of a 100,000-long chain ending in a scoped key is refused with a short path",
            .scale
        )
        func captiveAtTheEndOfALongChain() async throws {
            let length = Self.length
            let error = await injectionError {
                _ = try await makeInjector { b in
                    for link in 0..<(length - 1) {
                        b.bind(Engine.self, named: "link\(link)").to(Engine.self, named: "link\(link + 1)")
                            .asSingleton()
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

        @Test("a 100,000-long cycle of transient providers is a cycle error when the depth limit allows it", .scale)
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

        @Test("a chain of 100,000 nested child injectors resolves from its end and is released without a crash", .scale)
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
            // A derived injector takes the whole module stack, gathered from the end of the chain.
            let derived = try await leaf.withModules([])
            _ = try await derived.get(Wheel.self)
            await derived.shutdown(within: nil)
            await leaf.shutdown(within: nil)
            // Dropping the only reference to the end of the chain releases all 100,000 injectors.
            leaf = root
            await root.shutdown(within: nil)
        }

        @Test("runtime arguments pass along a 100,000-long chain of aliases in linear time", .scale)
        func argumentsThroughALongAliasChain() async throws {
            // Each link checked the arguments against the rest of the chain again: 8,000 links
            // took 12 s, 100,000 would take half an hour.
            let injector = try await InjectorActor(
                modules: [
                    TestModule { b in
                        b.bind(Int.self, named: "l\(Self.length)").to(arguments: String.self) { _, text in text.count }
                        for link in 0..<Self.length {
                            b.bind(Int.self, named: "l\(link)").to(Int.self, named: "l\(link + 1)")
                        }
                    }
                ],
                maxResolutionDepth: Self.length + 10
            )
            let count = try await withDeadline { try await injector.get(Int.self, named: "l0", arguments: "abc") }
            #expect(count == 3)
            let refused = await injectionError { _ = try await injector.get(Int.self, named: "l0", arguments: 3) }
            #expect(refused?.code == .argumentMismatch)
        }

        @Test("resolving from every level of a chain of 100,000 children, as it grows, takes linear time", .scale)
        func resolvingAtEveryLevel() async throws {
            // Each lookup walked every table and injector above it: 8,000 levels took 2.3 s,
            // 100,000 would take minutes.
            let root = try await makeInjector { b in
                b.bind(Engine.self).to(Engine.init).asSingleton()
                b.bind(Wheel.self).to(Wheel.init)
                b.bind(Car.self).to(Car.init)
            }
            let leaf = try await withDeadline {
                var leaf = root
                for level in 0..<Self.length {
                    leaf = try await leaf.child(modules: [TestModule { $0.bind(Int.self).toInstance(level) }])
                    _ = try await leaf.get(Car.self)
                    _ = try await leaf.get(Registry.self)
                    _ = try await leaf.get(Lazy<Engine>.self).value
                }
                return leaf
            }
            #expect(try await leaf.get(Int.self) == Self.length - 1)
            await root.shutdown(within: nil)
        }

        @Test("100,000 decorators of one binding apply in order, and the injector is released without a crash", .scale)
        func manyDecorators() async throws {
            var injector: InjectorActor? = try await makeInjector { b in
                b.bind(Int.self).toInstance(0)
                for step in 0..<Self.length { b.decorate(Int.self) { _, value in value * 2 % 1_000_003 + step } }
            }
            let expected = (0..<Self.length).reduce(0) { value, step in value * 2 % 1_000_003 + step }
            #expect(try await injector?.get(Int.self) == expected)
            // Dropping the injector releases its one decorated recipe: a wrapper per decorator
            // released each other recursively, exhausting the stack.
            weak let released = injector
            injector = nil
            #expect(released == nil)
        }

        @Test("100,000 nested child injectors, each contributing one element, build in linear time", .scale)
        func nestedContributingChildren() async throws {
            // Each child's collection is its own contribution over its parent's, not a copy.
            let leaf = try await withDeadline {
                var leaf = try await makeInjector { $0.contribute(Int.self).toInstance(0) }
                for index in 1..<Self.length {
                    leaf = try await leaf.child(modules: [TestModule { $0.contribute(Int.self).toInstance(index) }])
                }
                return leaf
            }
            let elements = try await leaf.get([Int].self)
            #expect(elements.count == Self.length)
            #expect(elements.first == 0 && elements.last == Self.length - 1)
        }

        @Test("100,000 nested child injectors, each declaring a scoped binding, build in linear time", .scale)
        func nestedChildrenDeclaringScopedBindings() async throws {
            // Each child's scope layout was its parent's, copied and shifted: 20,000 levels held
            // two hundred million entries, 100,000 would hold five billion.
            var leaf = try await withDeadline {
                var leaf = try await makeInjector { $0.bind(Int.self, named: "level 0").to { _ in 0 }.inScope(.scoped) }
                for level in 1..<Self.length {
                    leaf = try await leaf.child(modules: [
                        TestModule { $0.bind(Int.self, named: "level \(level)").to { _ in level }.inScope(.scoped) }
                    ])
                }
                return leaf
            }
            try await leaf.withScope { scope in
                let last = try await scope.get(Int.self, named: "level \(Self.length - 1)")
                let first = try await scope.get(Int.self, named: "level 0")
                #expect(last == Self.length - 1 && first == 0)
                #expect(try await scope.get(Int.self, named: "level 0") == 0)
            }
            // Dropping the end of the chain releases every injector and its layout.
            weak let released = leaf
            leaf = try await makeInjector { _ in }
            #expect(released == nil)
        }

        @Test("children adding one element to a collection of 100,000 cost the same whatever its size", .scale)
        func childrenOverALargeCollection() async throws {
            let root = try await makeInjector { b in
                for index in 0..<Self.length { b.contribute(Int.self).toInstance(index) }
            }
            // 2,000 children: at the cost of copying and walking the root's 100,000 each, this
            // took minutes.
            let last = try await withDeadline {
                var last = root
                for index in 0..<2_000 {
                    last = try await root.child(modules: [TestModule { $0.contribute(Int.self).toInstance(-index) }])
                }
                return last
            }
            let elements = try await last.get([Int].self)
            #expect(elements.count == Self.length + 1)
            #expect(elements.last == -1_999)
        }

        @Test("100,000 collections of one contribution each are built in linear time", .scale)
        func manyCollections() async throws {
            let injector = try await withDeadline {
                try await makeInjector { b in
                    for index in 0..<Self.length { b.contribute(Int.self, named: "c\(index)").toInstance(index) }
                }
            }
            #expect(try await injector.get([Int].self, named: "c99999") == [99_999])
        }

        @Test("100,000 request scopes nested in each other open, resolve and end", .scale)
        func nestedScopes() async throws {
            let injector = try await makeInjector { b in b.bind(Engine.self).to(Engine.init).inScope(.scoped) }
            func nest(_ scope: InjectorActor, _ remaining: Int) async throws -> Int {
                if remaining == 0 { return try await scope.get(Engine.self) === scope.get(Engine.self) ? 1 : 0 }
                return try await scope.withScope { inner in try await nest(inner, remaining - 1) }
            }
            #expect(try await nest(injector, Self.length) == 1)
        }

        @Test("100,000 bindings build, resolve, and give a child cheaply", .scale)
        func manyBindings() async throws {
            let injector = try await makeInjector { binder in
                for index in 0..<100_000 { binder.bind(Int.self, named: String(index)).toInstance(index) }
            }
            #expect(try await injector.get(Int.self, named: "99999") == 99_999)
            let child = try await injector.child(modules: [TestModule { $0.bind(Int.self, named: "0").toInstance(-1) }])
            #expect(try await child.get(Int.self, named: "0") == -1)
            #expect(child.table.bindings.count == 1)
        }

        @Test("a chain of 100,000 declared dependencies is checked without exhausting the stack", .scale)
        func veryDeepChain() async throws {
            let depth = 100_000
            let error = await injectionError {
                _ = try await InjectorActor(modules: [
                    ChainModule(depth: depth, closesCycle: false, leavesEndUnbound: true)
                ]
                )
            }
            #expect(
                error?.problems.map(\.message) == [
                    "'Int named \"\(depth - 1)\"' is bound to 'Int named \"\(depth)\"', which is not bound"
                ])

            let cycle = await injectionError {
                _ = try await InjectorActor(modules: [
                    ChainModule(depth: depth, closesCycle: true, leavesEndUnbound: false)
                ]
                )
            }
            #expect(cycle?.problems.map(\.code) == [.circularDependency])
            #expect(cycle?.problems.first?.path.count == depth + 1)
        }

        // Each of these runs in its own process, so that a stack overflow fails the test instead of
        // killing the run.
        @Test("in a process of its own, the captive check accepts a 100,000-long chain with a transient head", .scale)
        func transientHeadedChainIsFine() async {
            await #expect(processExitsWith: .success) {
                _ = try await InjectorActor(modules: [SingletonHeadedChain(depth: 100_000, headIsSingleton: false)])
            }
        }

        @Test(
            "in a process of its own, the captive check walks 100,000 dependencies without exhausting the stack",
            .scale
        )
        func captiveCheckDeepChainCrashes() async {
            // Run in its own process: before the captive walk was made iterative, this overflowed
            // the stack and killed the process.
            await #expect(processExitsWith: .success) {
                _ = try await InjectorActor(modules: [SingletonHeadedChain(depth: 100_000)])
            }
        }
    }
}
