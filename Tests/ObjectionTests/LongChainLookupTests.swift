import Testing

@testable import Objection

@Suite("Lookups from deep in a long chain of children")
struct LongChainLookupTests {
    /// A link of a chain, answering for the keys bound at it, with a memo where ``ChainMemo`` says.
    final class Link {
        let parent: Link?
        let bound: [Int: String]
        let depth: Int
        let memo: ChainMemo<Int, String>?

        init(parent: Link?, bound: [Int: String] = [:]) {
            self.parent = parent
            self.bound = bound
            self.depth = parent.map { $0.depth + 1 } ?? 0
            self.memo = ChainMemo.forLink(atDepth: depth)
        }

        /// What a walk from here finds for `key`, counting the links it asks in `asked`.
        func find(_ key: Int, asked: inout Int) -> String? {
            ChainMemo.find(key, from: self, parent: { $0.parent }, memo: { $0.memo }) { link in
                asked += 1
                return link.bound[key]
            }
        }
    }

    @Test("a walk from each new end of a growing chain asks a bounded number of links, not the chain's length")
    func walksAreBounded() {
        var end = Link(parent: nil, bound: [1: "root"])
        var asked = 0
        var mostAsked = 0
        for _ in 0..<10_000 {
            end = Link(parent: end)
            var askedThisTime = 0
            #expect(end.find(1, asked: &askedThisTime) == "root")
            asked += askedThisTime
            mostAsked = max(mostAsked, askedThisTime)
        }
        // Without memos the walks ask 50 million links in all, the last one 10,001.
        let interval = ChainMemo<Int, String>.interval
        #expect(mostAsked <= 2 * interval + 1)
        #expect(asked <= 10_000 * (2 * interval + 1))
    }

    @Test("a key nothing binds is remembered as unbound, and a nearer binding still wins over a memo")
    func overridesAndAbsentKeys() {
        var links = [Link(parent: nil, bound: [1: "root"])]
        for depth in 1...200 {
            links.append(Link(parent: links[depth - 1], bound: depth == 100 ? [1: "level 100"] : [:]))
        }
        var asked = 0
        // Ask from every level, deepest first and then again nearest first, so that each memo has
        // been filled from below and from above before it is read.
        for order in [Array(links.indices.reversed()), Array(links.indices)] {
            for depth in order {
                #expect(links[depth].find(1, asked: &asked) == (depth >= 100 ? "level 100" : "root"))
                #expect(links[depth].find(2, asked: &asked) == nil)
            }
        }
    }

    @Test("a memo keeps a bounded number of keys however many distinct keys are asked, and still answers each")
    func memosAreBounded() {
        var links = [Link(parent: nil, bound: [0: "root"])]
        let interval = ChainMemo<Int, String>.interval
        for depth in 1...(2 * interval) { links.append(Link(parent: links[depth - 1])) }
        let end = links[2 * interval]
        let capacity = ChainMemo<Int, String>.capacity
        let memos = links.compactMap(\.memo)
        #expect(memos.count == 2)
        var asked = 0
        #expect(end.find(0, asked: &asked) == "root")
        for key in 1..<(capacity + 1_000) {
            #expect(end.find(key, asked: &asked) == nil)
            for memo in memos { #expect(memo.count <= capacity) }
        }
        // The key the application asked first was forgotten when the memos filled: asked again,
        // it walks the chain once more, and is then remembered.
        var askedAgain = 0
        #expect(end.find(0, asked: &askedAgain) == "root")
        #expect(askedAgain == 2 * interval + 1)
        askedAgain = 0
        #expect(end.find(0, asked: &askedAgain) == "root")
        #expect(askedAgain == 1)
    }

    @Test("every kind of resolution from every level of a chain of children finds what its level binds")
    func resolutionsFromEveryLevel() async throws {
        let built = Counter()
        let root = try await makeInjector { b in
            b.bind(Config.self).toInstance(Config(dsn: "root"))
            b.bind(Wheel.self).to(Wheel.init)
        }
        var chain = [root]
        for depth in 1...100 {
            chain.append(
                try await chain[depth - 1].child(modules: [
                    TestModule { b in
                        b.bind(Wheel.self, named: "level \(depth)").to(Wheel.init)
                        guard depth == 40 else { return }
                        b.bind(Config.self).toInstance(Config(dsn: "level 40"))
                        b.bind(Car.self).to(Car.init)
                        b.bind(Engine.self).to { _ in
                            built.increment()
                            return Engine()
                        }.asSingleton()
                    }
                ]))
        }
        var engines: Set<ObjectIdentifier> = []
        var registries: Set<ObjectIdentifier> = []
        for (depth, injector) in chain.enumerated().reversed() {
            #expect(try await injector.get(Config.self).dsn == (depth >= 40 ? "level 40" : "root"))
            #expect((try await injector.getIfBound(Engine.self) != nil) == (depth >= 40))
            if depth >= 40 {
                engines.insert(ObjectIdentifier(try await injector.get(Car.self).engine))
                engines.insert(ObjectIdentifier(try await injector.get(Lazy<Engine>.self).value))
                engines.insert(ObjectIdentifier(try await injector.get(Garage.self).engine))
            }
            // A just-in-time singleton belongs to the root, found through the memos too.
            registries.insert(ObjectIdentifier(try await injector.get(Registry.self)))
            #expect(try await injector.getIfBound(Wheel.self, named: "level \(depth + 1)") == nil)
        }
        // The singleton declared at level 40 is built once, by its declaring injector, for all.
        #expect(engines.count == 1)
        #expect(built.value == 1)
        #expect(registries.count == 1)
        // Its owner, found through the memos, is the injector that disposes it.
        await chain[40].shutdown(within: nil)
        await #expect(throws: InjectionError.self) { _ = try await chain[100].get(Engine.self) }
        await root.shutdown(within: nil)
    }
}
