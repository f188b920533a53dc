import ObjectionTesting
import Testing

@testable import Objection

/// The tree of constructions: each ``ObservedConstruction`` has an identity and names the
/// construction that needed it, on both resolution paths, across tasks and scopes.
extension ObserverTests {
    final class Top: Sendable {}
    final class Middle: Sendable {}
    final class Bottom: Sendable {}
    final class Front: Sendable {}

    @Test("singletons built in tasks of their own name the construction that needed them as parent")
    func nestedSingletonsAcrossTasks() async throws {
        let recorder = RecordingObserver(observesScopes: true)
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    // Each suspends, so each is built in its own detached task.
                    binder.bind(Top.self).to { resolver in
                        await Task.yield()
                        _ = try await resolver.get(Middle.self)
                        return Top()
                    }.asSingleton()
                    binder.bind(Middle.self).to { resolver in
                        await Task.yield()
                        _ = try await resolver.get(Bottom.self)
                        return Middle()
                    }.asSingleton()
                    binder.bind(Bottom.self).to { _ in
                        await Task.yield()
                        return Bottom()
                    }.asSingleton()
                }
            ],
            observer: recorder
        )
        _ = try await injector.get(Top.self)
        let top = try #require(recorder.construction(of: Top.self))
        let middle = try #require(recorder.construction(of: Middle.self))
        let bottom = try #require(recorder.construction(of: Bottom.self))
        #expect(top.parentID == nil)
        #expect(middle.parentID == top.id)
        #expect(bottom.parentID == middle.id)
        #expect(Set([top.id, middle.id, bottom.id]).count == 3)
        #expect(top.scope == .singleton && middle.key == BindingKey(Middle.self))
        // Each ends once, innermost first, as the started value.
        let ended = recorder.ended
        #expect(ended.map(\.0) == [bottom, middle, top])
        #expect(ended.allSatisfy { !$0.failed })
    }

    /// Autowired, so that a request builds them with plain function calls.
    @Sendable static func front(middle: Middle) -> Front { Front() }
    @Sendable static func middle(bottom: Bottom) -> Middle { Middle() }

    @Test("scoped instances built without suspending, and a singleton a scoped one needs, nest too")
    func scopedOnBothPaths() async throws {
        let recorder = RecordingObserver(observesScopes: true)
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Front.self).to(Self.front).inScope(.scoped)
                    binder.bind(Middle.self).to(Self.middle).inScope(.scoped)
                    binder.bind(Bottom.self).to(Bottom.init).inScope(.scoped)
                    // Suspends: built on the asynchronous path, and needs a singleton.
                    binder.bind(Top.self).to { resolver in
                        await Task.yield()
                        _ = try await resolver.get(Engine.self)
                        return Top()
                    }.inScope(.scoped)
                    binder.bind(Engine.self).to { _ in
                        await Task.yield()
                        return Engine()
                    }.asSingleton()
                }
            ],
            observer: recorder
        )
        try await injector.withScope(values: { _ in }) { scope in
            _ = try await scope.get(Front.self)
            _ = try await scope.get(Top.self)
        }
        let front = try #require(recorder.construction(of: Front.self))
        let middle = try #require(recorder.construction(of: Middle.self))
        let bottom = try #require(recorder.construction(of: Bottom.self))
        let top = try #require(recorder.construction(of: Top.self))
        let engine = try #require(recorder.construction(of: Engine.self))
        #expect(front.parentID == nil && top.parentID == nil)
        #expect(middle.parentID == front.id)
        #expect(bottom.parentID == middle.id)
        #expect(engine.parentID == top.id)
        #expect(bottom.start >= front.start)
        #expect(recorder.scopes == ["opened", "ended"])
    }

    final class Left: Sendable {}
    final class Right: Sendable {}
    final class Root: Sendable {}
    @Sendable static func left(bottom: Bottom) -> Left { Left() }
    @Sendable static func root(left: Left, right: Right) -> Root { Root() }

    @Test("siblings built without suspending are heard in order, each ended before the next starts")
    func synchronousSiblings() async throws {
        let recorder = RecordingObserver(observesScopes: true)
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Root.self).to(Self.root).inScope(.scoped)
                    binder.bind(Left.self).to(Self.left).inScope(.scoped)
                    binder.bind(Right.self).to(Right.init).inScope(.scoped)
                    binder.bind(Bottom.self).to(Bottom.init).inScope(.scoped)
                }
            ],
            observer: recorder
        )
        try await injector.withScope(values: { _ in }) { _ = try await $0.get(Root.self) }
        #expect(
            recorder.order
                == ["+Root", "+Left", "+Bottom", "-Bottom", "-Left", "+Right", "-Right", "-Root"])
        let root = try #require(recorder.construction(of: Root.self))
        let left = try #require(recorder.construction(of: Left.self))
        let right = try #require(recorder.construction(of: Right.self))
        let bottom = try #require(recorder.construction(of: Bottom.self))
        #expect(root.parentID == nil)
        #expect(left.parentID == root.id && right.parentID == root.id)
        #expect(bottom.parentID == left.id)
    }

    struct Token: Sendable {}
    final class Outer: Sendable {}
    final class Mid: Sendable {}
    final class Lower: Sendable {}
    @Sendable static func upper(mid: Mid) -> Top { Top() }
    @Sendable static func mid(lower: Lower, token: Token) -> Mid { Mid() }

    @Test(
        "constructions handed to the asynchronous path are heard once, from it, under the resolution's parent"
    )
    func handedOverChain() async throws {
        let recorder = RecordingObserver(observesScopes: true)
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    // Suspends, so the synchronous resolution of Top below runs inside it and
                    // names it as the parent of what it reports.
                    binder.bind(Outer.self).to { resolver in
                        await Task.yield()
                        _ = try? await resolver.get(Top.self)
                        return Outer()
                    }.inScope(.scoped)
                    // Top -> Mid -> (Lower, Token): Lower is built without suspending, then the
                    // token, which the scope does not supply, makes Mid and Top hand over.
                    binder.bind(Top.self).to(Self.upper).inScope(.scoped)
                    binder.bind(Mid.self).to(Self.mid).inScope(.scoped)
                    binder.bind(Lower.self).to(Lower.init).inScope(.scoped)
                    binder.bind(Token.self).suppliedByScope()
                }
            ],
            observer: recorder
        )
        try await injector.withScope(values: { _ in }) { _ = try await $0.get(Outer.self) }
        #expect(
            recorder.order
                == ["+Outer", "+Lower", "-Lower", "+Top", "+Mid", "-Mid", "-Top", "-Outer"])
        let outer = try #require(recorder.construction(of: Outer.self))
        let top = try #require(recorder.construction(of: Top.self))
        let mid = try #require(recorder.construction(of: Mid.self))
        let lower = try #require(recorder.construction(of: Lower.self))
        // Lower's synchronous parents were handed over and never reported from that path: it
        // names the nearest construction reported, the one the resolution ran inside.
        #expect(lower.parentID == outer.id)
        #expect(top.parentID == outer.id && mid.parentID == top.id)
        let failed = recorder.ended.filter(\.failed).map(\.0.key)
        #expect(failed == [BindingKey(Mid.self), BindingKey(Top.self)])
    }

    @Test("a custom-scoped construction is a parent to what it needs")
    func customScope() async throws {
        let recorder = RecordingObserver(observesScopes: true)
        let minute = Scope.custom("minute") { WeakReferenceCache() }
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Top.self).to { resolver in
                        _ = try await resolver.get(Bottom.self)
                        return Top()
                    }.inScope(minute)
                    binder.bind(Bottom.self).to { _ in
                        await Task.yield()
                        return Bottom()
                    }.asSingleton()
                }
            ],
            observer: recorder
        )
        let kept = try await injector.get(Top.self)
        let top = try #require(recorder.construction(of: Top.self))
        let bottom = try #require(recorder.construction(of: Bottom.self))
        #expect(top.scope == minute)
        #expect(bottom.parentID == top.id)
        withExtendedLifetime(kept) {}
    }
}
