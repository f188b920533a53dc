import Testing

@testable import Objection

/// Planning which bindings build without suspending, on graphs whose bindings share their
/// dependencies: each binding is planned a bounded number of times, not once per path.
@Suite("Planning synchronous builds", .hangLimit)
struct SynchronousPlanTests {
    protocol Level: Sendable {}

    final class Leaf: Level {}

    /// A level of two bindings, `a` and `b`, each needing both bindings of the level below.
    final class Pair<Below: Level>: Level {
        init(a: Named<Below, SideA>, b: Named<Below, SideB>) {}
    }

    enum SideA: BindingName { static let name = "a" }
    enum SideB: BindingName { static let name = "b" }

    /// Binds `levels` levels of ``Pair`` over `below`, scoped, two bindings per level, the top
    /// level first: planned in that order, each binding is reached from above before its own turn.
    static func bindLevels<Below: Level>(_ binder: Binder, over below: Below.Type, levels: Int) {
        guard levels > 0 else { return }
        bindLevels(binder, over: Pair<Below>.self, levels: levels - 1)
        binder.bind(Pair<Below>.self, named: SideA.name).to(Pair<Below>.init).inScope(.scoped)
        binder.bind(Pair<Below>.self, named: SideB.name).to(Pair<Below>.init).inScope(.scoped)
    }

    @Test("40 levels of scoped bindings, each needing both of the level below: planned at once, and they resolve")
    func sharedDependenciesDeeperThanTheCut() async throws {
        let levels = SynchronousPlan.maximumDepth + 8
        let injector = try await withDeadline(seconds: 120) {
            try await InjectorActor(modules: [
                TestModule { binder in
                    Self.bindLevels(binder, over: Leaf.self, levels: levels)
                    binder.bind(Leaf.self, named: SideA.name).to(Leaf.init).inScope(.scoped)
                    binder.bind(Leaf.self, named: SideB.name).to(Leaf.init).inScope(.scoped)
                }
            ])
        }
        let built = try await injector.withScope { scope in
            let first = try await scope.get(Pair<Pair<Leaf>>.self, named: SideA.name)
            return try await first === scope.get(Pair<Pair<Leaf>>.self, named: SideA.name)
        }
        #expect(built)
    }
}
