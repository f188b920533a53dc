import Testing

@testable import Objection

@Suite("Observed constructions: identities, parents, startups and scopes", .timeLimit(.minutes(1)))
struct ConstructionTreeTests {
    /// Records every event of the extended observer API.
    final class TreeRecorder: InjectionObserver {
        struct State {
            var started: [ObservedConstruction] = []
            var ended: [(ObservedConstruction, failed: Bool)] = []
            var startups: [String] = []
            var scopes: [String] = []
            /// Starts and ends as they were heard: `+Key`, `-Key`.
            var order: [String] = []
        }
        let state = Lock(State())
        let wantsScopes: Bool

        init(wantsScopes: Bool = true) { self.wantsScopes = wantsScopes }

        var observesScopes: Bool { wantsScopes }
        func constructionStarted(_ construction: ObservedConstruction) {
            state.withLock {
                $0.started.append(construction)
                $0.order.append("+\(construction.key)")
            }
        }
        func constructionFinished(_ construction: ObservedConstruction, duration: Duration) {
            state.withLock {
                $0.ended.append((construction, false))
                $0.order.append("-\(construction.key)")
            }
        }
        func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
            state.withLock {
                $0.ended.append((construction, true))
                $0.order.append("-\(construction.key)")
            }
        }
        func startupStarted(_ id: ObservedConstruction.ID, singletons: Int) {
            state.withLock { $0.startups.append("started \(id.rawValue) \(singletons)") }
        }
        func startupFinished(_ id: ObservedConstruction.ID, duration: Duration, error: (any Error)?) {
            state.withLock { $0.startups.append("finished \(id.rawValue) \(error == nil ? "ok" : "error")") }
        }
        func scopeOpened() { state.withLock { $0.scopes.append("opened") } }
        func scopeEnded(_ outcome: ScopeOutcome) {
            state.withLock { $0.scopes.append(outcome.error == nil ? "ended" : "ended failed") }
        }

        /// The construction of `type` started, the one and only.
        func construction<T>(of type: T.Type) -> ObservedConstruction? {
            let found = state.withLock { $0.started.filter { $0.key == BindingKey(type) } }
            #expect(found.count == 1, "\(T.self) started \(found.count) times")
            return found.first
        }

        /// The raw id of the startup, from its `started` line.
        var startupID: UInt64? {
            state.withLock { $0.startups.first }.flatMap { UInt64($0.split(separator: " ")[1]) }
        }
    }

    final class Top: Sendable {}
    final class Middle: Sendable {}
    final class Bottom: Sendable {}
    final class Handler: Sendable {}

    @Test("singletons built in tasks of their own name the construction that needed them as parent")
    func nestedSingletonsAcrossTasks() async throws {
        let recorder = TreeRecorder()
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
        let ended = recorder.state.withLock { $0.ended }
        #expect(ended.map(\.0) == [bottom, middle, top])
        #expect(ended.allSatisfy { !$0.failed })
    }

    /// Autowired, so that a request builds them with plain function calls.
    @Sendable static func handler(middle: Middle) -> Handler { Handler() }
    @Sendable static func middle(bottom: Bottom) -> Middle { Middle() }

    @Test("scoped instances built without suspending, and a singleton a scoped one needs, nest too")
    func scopedOnBothPaths() async throws {
        let recorder = TreeRecorder()
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Handler.self).to(Self.handler).inScope(.scoped)
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
            _ = try await scope.get(Handler.self)
            _ = try await scope.get(Top.self)
        }
        let handler = try #require(recorder.construction(of: Handler.self))
        let middle = try #require(recorder.construction(of: Middle.self))
        let bottom = try #require(recorder.construction(of: Bottom.self))
        let top = try #require(recorder.construction(of: Top.self))
        let engine = try #require(recorder.construction(of: Engine.self))
        #expect(handler.parentID == nil && top.parentID == nil)
        #expect(middle.parentID == handler.id)
        #expect(bottom.parentID == middle.id)
        #expect(engine.parentID == top.id)
        #expect(bottom.start >= handler.start)
        #expect(recorder.state.withLock { $0.scopes } == ["opened", "ended"])
    }

    final class Left: Sendable {}
    final class Right: Sendable {}
    final class Root: Sendable {}
    @Sendable static func left(bottom: Bottom) -> Left { Left() }
    @Sendable static func root(left: Left, right: Right) -> Root { Root() }

    @Test("siblings built without suspending are heard in order, each ended before the next starts")
    func synchronousSiblings() async throws {
        let recorder = TreeRecorder()
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
            recorder.state.withLock { $0.order }
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
        "constructions handed over to the asynchronous path are heard once, from it; what they built first names the resolution's parent"
    )
    func handedOverChain() async throws {
        let recorder = TreeRecorder()
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
            recorder.state.withLock { $0.order }
                == ["+Outer", "+Lower", "-Lower", "+Top", "+Mid", "-Mid", "-Top", "-Outer"])
        let outer = try #require(recorder.construction(of: Outer.self))
        let top = try #require(recorder.construction(of: Top.self))
        let mid = try #require(recorder.construction(of: Mid.self))
        let lower = try #require(recorder.construction(of: Lower.self))
        // Lower's synchronous parents were handed over and never reported from that path: it
        // names the nearest construction reported, the one the resolution ran inside.
        #expect(lower.parentID == outer.id)
        #expect(top.parentID == outer.id && mid.parentID == top.id)
        let failed = recorder.state.withLock { $0.ended.filter(\.failed).map(\.0.key) }
        #expect(failed == [BindingKey(Mid.self), BindingKey(Top.self)])
    }

    @Test("a custom-scoped construction is a parent to what it needs")
    func customScope() async throws {
        let recorder = TreeRecorder()
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

    @Test("a startup is reported once, before and after the singletons it builds, which name it as parent")
    func startupHooks() async throws {
        let recorder = TreeRecorder()
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Top.self).to { resolver in
                        _ = try await resolver.get(Middle.self)
                        return Top()
                    }.asEagerSingleton()
                    binder.bind(Middle.self).to { _ in
                        await Task.yield()
                        return Middle()
                    }.asEagerSingleton()
                    binder.bind(Bottom.self).to(Bottom.init).asEagerSingleton()
                }
            ],
            observer: recorder
        )
        let startup = try #require(recorder.startupID)
        #expect(recorder.state.withLock { $0.startups } == ["started \(startup) 3", "finished \(startup) ok"])
        let top = try #require(recorder.construction(of: Top.self))
        let middle = try #require(recorder.construction(of: Middle.self))
        let bottom = try #require(recorder.construction(of: Bottom.self))
        #expect(top.parentID?.rawValue == startup && bottom.parentID?.rawValue == startup)
        // Startup asks for Middle too; Top's provider may get there first and then be its parent.
        #expect(middle.parentID?.rawValue == startup || middle.parentID == top.id)
        #expect([top, middle, bottom].allSatisfy { $0.id.rawValue > startup })
        // A later start builds nothing more and reports nothing more.
        try await injector.start()
        #expect(recorder.state.withLock { $0.startups.count } == 4)
        await injector.shutdown()
    }

    @Test("a failed startup is reported once, with its error")
    func failedStartup() async throws {
        let recorder = TreeRecorder()
        await #expect(throws: ProviderFailure(attempt: 5)) {
            _ = try await InjectorActor(
                modules: [
                    TestModule { binder in
                        binder.bind(Top.self).to { _ -> Top in throw ProviderFailure(attempt: 5) }.asEagerSingleton()
                    }
                ],
                observer: recorder
            )
        }
        let startup = try #require(recorder.startupID)
        #expect(recorder.state.withLock { $0.startups } == ["started \(startup) 1", "finished \(startup) error"])
        let ended = recorder.state.withLock { $0.ended }
        #expect(ended.count == 1 && ended.first?.failed == true && ended.first?.0.parentID?.rawValue == startup)
    }

    @Test("scope events reach only an observer that asks for them, once per scope, with the body's outcome")
    func scopeEvents() async throws {
        let asking = TreeRecorder(wantsScopes: true)
        let notAsking = TreeRecorder(wantsScopes: false)
        #expect(ObserverTests.Silent().observesScopes == false)
        for recorder in [asking, notAsking] {
            let injector = try await InjectorActor(modules: [], observer: recorder)
            try await injector.withScope(values: { _ in }) { _ in }
            await #expect(throws: ProviderFailure(attempt: 3)) {
                try await injector.withScope(modules: []) { _ in throw ProviderFailure(attempt: 3) }
            }
            // A child reports to the root's observer with the root's answer.
            let child = try await injector.child(modules: [])
            try await child.withScope(values: { _ in }) { _ in }
        }
        #expect(
            asking.state.withLock { $0.scopes } == ["opened", "ended", "opened", "ended failed", "opened", "ended"])
        #expect(notAsking.state.withLock { $0.scopes }.isEmpty)
    }

    @Test("an observer of failures only gets identities without parents")
    func failuresOnlyHaveNoParents() async throws {
        final class Failures: InjectionObserver {
            let failed = Lock<[ObservedConstruction]>([])
            var observesSuccesses: Bool { false }
            func constructionFailed(_ construction: ObservedConstruction, duration: Duration, error: any Error) {
                failed.withLock { $0.append(construction) }
            }
        }
        let observer = Failures()
        let injector = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Top.self).to { resolver in
                        _ = try await resolver.get(Bottom.self)
                        return Top()
                    }.asSingleton()
                    binder.bind(Bottom.self).to { _ -> Bottom in
                        await Task.yield()
                        throw ProviderFailure(attempt: 4)
                    }.asSingleton()
                }
            ],
            observer: observer
        )
        await #expect(throws: ProviderFailure(attempt: 4)) { try await injector.get(Top.self) }
        let failed = observer.failed.withLock { $0 }
        #expect(failed.map(\.key) == [BindingKey(Bottom.self), BindingKey(Top.self)])
        #expect(failed.allSatisfy { $0.parentID == nil })
        #expect(failed[0].id != failed[1].id)
    }
}
