import ObjectionTesting
import Testing

@testable import Objection

/// Regression tests from the second session's review of the graph check, `suppliedByScope`, stages,
/// the synchronous path for inherited bindings and the test trait: each failed before its fix.
@Suite("Review findings", .timeLimit(.minutes(1)))
struct ReviewFindingsTests {
    // MARK: - Fixtures

    final class Scoped: Sendable {}
    final class UsesScoped: Sendable {
        let scoped: Scoped
        init(scoped: Scoped) { self.scoped = scoped }
    }
    final class Keeper: Sendable {
        let user: UsesScoped
        init(user: UsesScoped) { self.user = user }
    }

    final class Pool: Sendable {
        init(settings: Settings) {}
    }
    final class Settings: Sendable {
        init() {}
        init(pool: Pool) {}
    }

    final class Plugin: Sendable {
        init() {}
        init(settings: PluginSettings) {}
    }
    final class PluginSettings: Sendable {
        init() {}
        init(plugins: [Plugin]) {}
    }

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

    final class Session: PropertyInjectable, @unchecked Sendable {
        var wheel: Wheel?
        static var injectedProperties: [InjectedProperty] { [.property(\Session.wheel)] }
    }

    final class UsesHandles: Sendable {
        init(engines: Factory<Engine>, wheel: Lazy<Wheel>, clock: InjectableClock) {}
    }

    protocol Ticking: Sendable {}
    final class JustInTimeTicker: Injectable, Ticking {
        static let injection = Injection(JustInTimeTicker.init)
    }

    // MARK: - Synchronous path for inherited bindings (change 4)

    @Test("a singleton of a child of a scope cannot capture a scoped instance, on the synchronous path either")
    func syncPathBypassesCaptiveRuleInChildOfScope() async throws {
        // README ("Choices"), ScopesAndLifetimes: "A child of a request scope follows the captive
        // rule too: its singletons cannot hold the request's scoped instances."
        func root(suspends: Bool) async throws -> InjectorActor {
            try await makeInjector { binder in
                if suspends {
                    binder.bind(Scoped.self).to { _ in
                        await Task.yield()
                        return Scoped()
                    }.inScope(.scoped)
                } else {
                    binder.bind(Scoped.self).to(Scoped.init).inScope(.scoped)
                }
                binder.bind(UsesScoped.self).to(UsesScoped.init)  // inherited by the child
            }
        }
        let keeper = TestModule {
            $0.bind(Keeper.self).to { r in try await Keeper(user: r.get(UsesScoped.self)) }.asSingleton()
        }
        // Control: Scoped suspends, so UsesScoped is not planned synchronous; the asynchronous
        // path asks isCaptive(below:) and refuses.
        try await root(suspends: true).withScope { scope in
            let child = try await scope.child(modules: [keeper])
            let error = await injectionError { _ = try await child.get(Keeper.self) }
            #expect(error?.code == .scopeViolation)
        }
        // Scoped is synchronous: the inherited UsesScoped now takes the synchronous path (before
        // 65372df only a binding of the asking injector's own table did), SynchronousResolver
        // builds Scoped in the request's cell without the captive check, and the child's singleton
        // keeps the request's instance past the request's end.
        try await root(suspends: false).withScope { scope in
            let child = try await scope.child(modules: [keeper])
            let error = await injectionError { _ = try await child.get(Keeper.self) }
            #expect(error?.code == .scopeViolation)
        }
    }

    @Test("a scoped instance is built with its scope's bindings, whoever asks, on both paths")
    func scopedInstanceBuiltWithRequesterTableOnSyncPath() async throws {
        let root = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init)
            binder.bind(Wheel.self).to(Wheel.init)
            binder.bind(Car.self).to(Car.init).inScope(.scoped)
        }
        let spare = Wheel()

        // The child's override suspends: Car takes the asynchronous path and is built by the
        // scope, with the scope's bindings (buildScoped uses Resolver(injector: scope)).
        let asyncWheelIsSpare = try await root.withScope { scope in
            let child = try await scope.child(modules: [
                TestModule { binder in
                    binder.bind(Wheel.self).to { _ in
                        await Task.yield()
                        return spare
                    }
                }
            ])
            _ = try await child.get(Car.self)
            return try await scope.get(Car.self).wheel === spare
        }
        #expect(!asyncWheelIsSpare)

        // The same configuration with an instance override: Car takes the synchronous path,
        // whose SynchronousResolver looks dependencies up in the *child's* table, and the
        // scope's one Car now holds the child's Wheel.
        let syncWheelIsSpare = try await root.withScope { scope in
            let child = try await scope.child(modules: [TestModule { $0.bind(Wheel.self).toInstance(spare) }])
            _ = try await child.get(Car.self)
            return try await scope.get(Car.self).wheel === spare
        }
        #expect(syncWheelIsSpare == asyncWheelIsSpare)
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

    // MARK: - Graph check (change 1)

    @Test("the graph check does not re-walk an ancestor's custom-scoped binding with a child's table")
    func ancestorCustomScopedBindingFalseCycle() async throws {
        func root(_ scope: Scope) async throws -> InjectorActor {
            try await makeInjector { binder in
                binder.bind(Settings.self).toInstance(Settings())
                binder.bind(Pool.self).to(Pool.init).inScope(scope)
            }
        }
        let child = TestModule { $0.bind(Settings.self).to(Settings.init(pool:)) }

        // Control: an ancestor singleton is built by its owner with the owner's bindings; the
        // walk stops there, and the child resolves.
        let withSingleton = try await root(.singleton).child(modules: [child])
        _ = try await withSingleton.get(Settings.self)

        // A custom scope (.weak here) is built the same way, by owner(of:) with the owner's
        // table, so there is no cycle at run time; but the walk only skips `.singleton`, follows
        // Pool's dependency through the child's table to the child's Settings, and reports
        // "Settings -> Pool -> Settings".
        let withWeak = try await root(.weak).child(modules: [child])
        _ = try await withWeak.get(Settings.self)
    }

    @Test("the graph check does not re-walk an ancestor's singleton contribution with a child's table")
    func ancestorSingletonContributionFalseCycle() async throws {
        let root = try await makeInjector { binder in
            binder.bind(PluginSettings.self).toInstance(PluginSettings())
            binder.contribute(Plugin.self).to(Plugin.init(settings:)).asSingleton()
        }
        // At run time the root's contribution is a singleton owned (and built) by the root, with
        // the root's PluginSettings: no cycle. The walk adds `binding.contributions` without the
        // ancestor-singleton test that key lookups get.
        let child = try await root.child(modules: [
            TestModule { binder in
                binder.contribute(Plugin.self).toInstance(Plugin())
                binder.bind(PluginSettings.self).to(PluginSettings.init(plugins:))
            }
        ])
        _ = try await child.get(PluginSettings.self)
    }

    @Test("an alias to an Injectable type is accepted: Injectable types need no binding")
    func aliasToInjectableRejected() async throws {
        // README (7) and CheckingTheGraph: "`Injectable` types need no binding, as at run time".
        // aliasProblems() still requires the target to be in the table.
        let injector = try await makeInjector { $0.bind((any Ticking).self).to(JustInTimeTicker.self) }
        _ = try await injector.get((any Ticking).self)
    }

    // MARK: - suppliedByScope (change 2)

    @Test("suppliedByScope on a PropertyInjectable type does not check the properties of a value it never builds")
    func suppliedByScopePropertyInjectableFalseMissing() async throws {
        // The placeholder never builds a Session (the request binds one with toInstance, which
        // injects nothing), but setTarget records Session's injected properties on it.
        let root = try await makeInjector { $0.bind(Session.self).suppliedByScope() }
        let session = Session()
        let got = try await root.withScope(modules: [TestModule { $0.bind(Session.self).toInstance(session) }]) {
            try await $0.get(Session.self)
        }
        #expect(got === session)
    }

    // MARK: - Drawing (docs: "Missing dependencies are drawn dashed and red")

    @Test("the graph draws Factory, Lazy and Injectable dependencies as provided, not missing")
    func graphDrawsHandlesAsMissing() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init)
            binder.bind(Wheel.self).to(Wheel.init)
            binder.bind(UsesHandles.self).to(UsesHandles.init)
        }
        // The injector was accepted: nothing is missing. The drawing disagrees.
        let dot = injector.graph(.dot)
        #expect(!dot.contains("missing"), "\(dot)")
    }

    @Test("graph(of:) draws an unbound alias target instead of throwing")
    func graphOfUnboundAliasTarget() async throws {
        // Documented as the way to see a configuration the initializer rejects "for a missing
        // dependency or a cycle"; an alias's missing target is still thrown by aliasProblems().
        let drawn = await outcome {
            try InjectorActor.graph(of: [TestModule { $0.bind((any Database).self).to(PostgresDatabase.self) }])
        }
        #expect((try? drawn.get())?.contains("missing") == true)
    }

    // MARK: - Test trait (change 6)

    @Test("a later module's direct binding of a collection replaces earlier contributions (trait overrides)")
    func traitOverrideOfCollection() async throws {
        struct Plugins: Module {
            func configure(_ binder: Binder) {
                binder.contribute(Plugin.self).toInstance(Plugin())
            }
        }
        struct NoPlugins: Module {
            func configure(_ binder: Binder) {
                binder.bind([Plugin].self).toInstance([])
            }
        }
        // With a child injector (before 0daafac) the override bound [Plugin] in its own table;
        // with one injector it is "'[Plugin]' is bound both directly and by contributions".
        let trait = InjectorTrait.injector(modules: [Plugins()], overriding: [NoPlugins()])
        let test = try #require(Test.current)
        try await trait.provideScope(for: test, testCase: nil) {
            let plugins = try await #require(InjectorActor.current).get([Plugin].self)
            #expect(plugins.isEmpty)
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

@Suite("Review findings: in a separate process", .timeLimit(.minutes(2)))
struct ReviewFindingsExitTests {
    @Test("control: the same chain with a transient head is accepted")
    func transientHeadedChainIsFine() async {
        await #expect(processExitsWith: .success) {
            _ = try await InjectorActor(modules: [SingletonHeadedChain(depth: 100_000, headIsSingleton: false)])
        }
    }

    @Test(
        "the captive check walks a chain of 100,000 declared dependencies under a singleton without exhausting the stack"
    )
    func captiveCheckDeepChainCrashes() async {
        // Run in its own process: before the captive walk was made iterative, this overflowed
        // the stack and killed the process.
        await #expect(processExitsWith: .success) {
            _ = try await InjectorActor(modules: [SingletonHeadedChain(depth: 100_000)])
        }
    }
}
