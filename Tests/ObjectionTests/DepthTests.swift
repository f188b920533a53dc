import Testing

@testable import Objection

@Suite("Deep graphs", .hangLimit)
struct DepthTests {
    /// `Top` needs `Mid`; `Mid`'s second initializer needs `Low`, which needs an `Engine`.
    final class Top: Sendable {
        init(mid: Mid) {}
    }
    final class Mid: Sendable {
        init() {}
        init(low: Low) {}
    }
    final class Low: Sendable {
        init(bottom: Engine) {}
    }

    /// `Int` named "0" needs "1", which needs "2", … up to `length - 1`: a chain of distinct keys.
    static func chain(length: Int, scope: Scope) -> TestModule {
        TestModule { binder in
            for level in 0..<length {
                binder.bind(Int.self, named: "\(level)").to { r in
                    level == length - 1 ? level : try await r.get(Int.self, named: "\(level + 1)")
                }.inScope(scope)
            }
        }
    }

    @Test("a chain of 1,000 distinct keys resolves", arguments: [Scope.transient, .singleton])
    func thousandKeyChain(scope: Scope) async throws {
        let injector = try await InjectorActor(modules: [Self.chain(length: 1_000, scope: scope)])
        #expect(try await injector.get(Int.self, named: "0") == 999)
    }

    @Test("resolution deeper than the configured limit throws depthLimitExceeded")
    func configuredLimit() async throws {
        let injector = try await InjectorActor(
            modules: [Self.chain(length: 100, scope: .transient)],
            maxResolutionDepth: 50
        )
        let error = await injectionError { _ = try await injector.get(Int.self, named: "0") }
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.path.count == 51)
        #expect(error?.message.hasPrefix("Resolution depth exceeded the limit of 50") == true)
    }

    @Test("a synchronous provider at the end of a chain counts towards the depth limit")
    func synchronousProviderDepth() async throws {
        // "0" -> "1" are asynchronous providers; "2" is a transient closure that does not
        // suspend, which runs without a step of its own: only its depth is checked.
        let module = TestModule { binder in
            binder.bind(Int.self, named: "0").to { r in try await r.get(Int.self, named: "1") }
            binder.bind(Int.self, named: "1").to { r in try await r.get(Int.self, named: "2") }
            binder.bind(Int.self, named: "2").to { (_: Resolver) -> Int in 2 }
        }
        let atLimit = try await InjectorActor(modules: [module], maxResolutionDepth: 3)
        #expect(try await atLimit.get(Int.self, named: "0") == 2)

        let belowLimit = try await InjectorActor(modules: [module], maxResolutionDepth: 2)
        let error = await injectionError { _ = try await belowLimit.get(Int.self, named: "0") }
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.path.count == 3)
    }

    @Test("the default limit stops a runaway chain instead of crashing")
    func defaultLimit() async throws {
        let length = InjectorActor.defaultMaxResolutionDepth + 10
        let injector = try await InjectorActor(modules: [Self.chain(length: length, scope: .transient)])
        let error = await injectionError { _ = try await injector.get(Int.self, named: "0") }
        #expect(error?.code == .depthLimitExceeded)
    }

    @Test("maxResolutionDepth holds when an inherited synchronous binding reaches a child's chain")
    func depthLimitBypassedAcrossTables() async throws {
        let root = try await InjectorActor(
            modules: [
                TestModule { binder in
                    binder.bind(Top.self).to(Top.init)
                    binder.bind(Mid.self).toInstance(Mid())  // planned as depth 1 in the root
                }
            ],
            maxResolutionDepth: 2
        )
        let child = try await root.child(modules: [
            TestModule { binder in
                binder.bind(Mid.self).to(Mid.init(low:))
                binder.bind(Low.self).to(Low.init)
                binder.bind(Engine.self).to(Engine.init)
            }
        ])
        // Mid -> Low -> Engine is 3 deep: over the limit of 2.
        let direct = await injectionError { _ = try await child.get(Mid.self) }
        #expect(direct?.code == .depthLimitExceeded)
        // Top -> Mid -> Low -> Engine is 4 deep, yet it resolves: only Top's own planned depth (1)
        // was compared with the limit.
        let through = await injectionError { _ = try await child.get(Top.self) }
        #expect(through?.code == .depthLimitExceeded)
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
        let error = try await withDeadline { await injectionError { _ = try await injector.get(NodeA.self) } }
        #expect(
            error?.code == .circularDependency || error?.code == .depthLimitExceeded, "\(String(describing: error))")
    }
}
