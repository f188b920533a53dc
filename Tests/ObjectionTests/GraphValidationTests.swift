import Testing

@testable import Objection

@Suite("Graph validation when an injector is built", .hangLimit)
struct GraphValidationTests {
    final class Checkout: Sendable {
        init(orders: Orders) {}
    }
    final class Orders: Sendable {
        init(payments: any PaymentGateway) {}
    }
    protocol PaymentGateway: Sendable {}

    /// A singleton that keeps the request's id: a captive dependency.
    final class RequestCache: Sendable {
        init(request: RequestID) {}
    }
    /// Reads the request's id; fine as a transient.
    final class AuditTrail: Sendable {
        let request: RequestID
        init(request: RequestID) { self.request = request }
    }

    /// `Pool` needs `Settings`; the second `Settings` initializer needs a `Pool`.
    final class Pool: Sendable {
        init(settings: Settings) {}
    }
    final class Settings: Sendable {
        init() {}
        init(pool: Pool) {}
    }

    /// A contribution that needs `PluginSettings`; the second `PluginSettings` initializer needs the collection.
    final class Plugin: Sendable {
        init() {}
        init(settings: PluginSettings) {}
    }
    final class PluginSettings: Sendable {
        init() {}
        init(plugins: [Plugin]) {}
    }

    /// A protocol implemented by a just-in-time type.
    protocol Ticking: Sendable {}
    final class JustInTimeTicker: Injectable, Ticking {
        static let injection = Injection(JustInTimeTicker.init)
    }

    /// A property-injected type, for keys supplied by request scopes.
    final class WiredSession: PropertyInjectable, @unchecked Sendable {
        var wheel: Wheel?
        static var injectedProperties: [InjectedProperty] { [.property(\WiredSession.wheel)] }
    }

    @Test(
        "missing keys, cycles, captive dependencies and a wrong eager scope are reported together, each with its path")
    func everyProblemTogether() async throws {
        let error = await injectionError {
            _ = try await makeInjector { binder in
                binder.bind(Checkout.self).to(Checkout.init)
                binder.bind(Orders.self).to(Orders.init)
                binder.bind(Chicken.self).to(Chicken.init)
                binder.bind(Egg.self).to(Egg.init)
                binder.bind(RequestID.self).to { _ in RequestID(value: 1) }.inScope(.scoped)
                binder.bind(RequestCache.self).to(RequestCache.init).asSingleton()
                binder.bind(Engine.self).to(Engine.init).asEagerSingleton().inScope(.transient)
            }
        }
        #expect(error?.code == .invalidConfiguration)
        let problems = error?.problems ?? []
        #expect(problems.count == 4)
        let missing = problems.first { $0.code == .missingBinding }
        #expect(
            missing?.path == [
                BindingKey(Checkout.self), BindingKey(Orders.self), BindingKey((any PaymentGateway).self),
            ])
        #expect(
            missing?.message == "No binding for 'PaymentGateway' (required by Checkout -> Orders -> PaymentGateway)")
        let cycle = problems.first { $0.code == .circularDependency }
        #expect(cycle?.path == [BindingKey(Chicken.self), BindingKey(Egg.self), BindingKey(Chicken.self)])
        let captive = problems.first { $0.code == .scopeViolation }
        #expect(captive?.path == [BindingKey(RequestCache.self), BindingKey(RequestID.self)])
        #expect(problems.contains { $0.message == "'Engine' is an eager singleton but is scoped transient" })
        // Every problem points at the module line that declared it.
        #expect(problems.allSatisfy { $0.location?.fileID.hasSuffix("GraphValidationTests.swift") == true })
        #expect(error?.description.contains("Checkout -> Orders -> PaymentGateway") == true)
    }

    @Test("a cycle is reported once, however many of its members the walk starts from")
    func oneReportPerCycle() async throws {
        let error = await injectionError {
            _ = try await makeInjector { binder in
                binder.bind(Egg.self).to(Egg.init)
                binder.bind(Chicken.self).to(Chicken.init)
                binder.bind(Car.self).to(Car.init)  // Not part of the cycle: Engine and Wheel are bound.
                binder.bind(Engine.self).to(Engine.init)
                binder.bind(Wheel.self).to(Wheel.init)
            }
        }
        #expect(error?.problems.map(\.message) == ["Circular dependency: Egg -> Chicken -> Egg"])
    }

    @Test("a diamond of declared dependencies is not a cycle")
    func diamondIsFine() async throws {
        final class Top: Sendable { init(left: Left, right: Right) {} }
        final class Left: Sendable { init(bottom: Engine) {} }
        final class Right: Sendable { init(bottom: Engine) {} }
        let injector = try await makeInjector { binder in
            binder.bind(Top.self).to(Top.init)
            binder.bind(Left.self).to(Left.init)
            binder.bind(Right.self).to(Right.init).asSingleton()
            binder.bind(Engine.self).to(Engine.init).asSingleton()
        }
        _ = try await injector.get(Top.self)
    }

    @Test("Factory and Lazy end a chain, and Injectable types need no binding")
    func handlesAndJustInTimeTypes() async throws {
        final class Parent: Sendable {
            let children: Factory<Child>
            init(children: Factory<Child>) { self.children = children }
        }
        final class Child: Sendable { init(parent: Parent) {} }
        final class UsesInjectable: Sendable { init(clock: InjectableClock) {} }
        let injector = try await makeInjector { binder in
            binder.bind(Parent.self).to(Parent.init).asSingleton()
            binder.bind(Child.self).to(Child.init)
            binder.bind(UsesInjectable.self).to(UsesInjectable.init)
        }
        _ = try await injector.get(Parent.self).children()
        _ = try await injector.get(UsesInjectable.self)

        let unboundHandle = await injectionError {
            _ = try await makeInjector { binder in
                binder.bind(Parent.self).to(Parent.init)
            }
        }
        #expect(unboundHandle?.problems.map(\.path) == [[BindingKey(Parent.self), BindingKey(Factory<Child>.self)]])
    }

    @Test("an alias to an Injectable type is accepted: Injectable types need no binding")
    func aliasToInjectableRejected() async throws {
        // `Injectable` types need no binding, in the check as at run time, so an alias may point at
        // one; aliasProblems() once required the alias's target to be in the table.
        let injector = try await makeInjector { $0.bind((any Ticking).self).to(JustInTimeTicker.self) }
        _ = try await injector.get((any Ticking).self)
    }

    @Test("closure providers are checked when they run, as before")
    func opaqueProvidersAtResolution() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Orders.self).to { r in try await Orders(payments: r.get((any PaymentGateway).self)) }
            binder.bind(Checkout.self).to(Checkout.init)
        }
        let error = await injectionError { _ = try await injector.get(Checkout.self) }
        #expect(error?.code == .missingBinding)
        #expect(
            error?.path == [BindingKey(Checkout.self), BindingKey(Orders.self), BindingKey((any PaymentGateway).self)])
    }

    @Test("a child is checked against its parent's bindings when it is created")
    func childrenAreChecked() async throws {
        let root = try await makeInjector { binder in
            binder.bind(Engine.self).to(Engine.init)
            binder.bind(Chicken.self).to(Chicken.init)
            binder.bind(Egg.self).to { _ in throw ProviderFailure(attempt: 0) }
        }
        let missing = await injectionError {
            _ = try await root.child(modules: [TestModule { $0.bind(Car.self).to(Car.init) }])
        }
        #expect(missing?.problems.map(\.message) == ["No binding for 'Wheel' (required by Car -> Wheel)"])

        // The child's override closes a cycle through a transient it inherits.
        let cycle = await injectionError {
            _ = try await root.child(modules: [TestModule { $0.bind(Egg.self).to(Egg.init) }])
        }
        #expect(cycle?.problems.map(\.message) == ["Circular dependency: Egg -> Chicken -> Egg"])

        let fine = try await root.child(modules: [TestModule { $0.bind(Wheel.self).to(Wheel.init) }])
        _ = try await fine.get(Engine.self)
    }

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

    @Test("a request scope's own modules are checked when the scope opens")
    func scopesAreChecked() async throws {
        let root = try await makeInjector { $0.bind(Engine.self).to(Engine.init) }
        let error = await injectionError {
            try await root.withScope(modules: [TestModule { $0.bind(Car.self).to(Car.init) }]) { _ -> Void in
                Issue.record("the body of a scope whose modules are invalid ran")
            }
        }
        #expect(error?.problems.map(\.message) == ["No binding for 'Wheel' (required by Car -> Wheel)"])
    }

    @Test("a key declared as supplied by request scopes: known to the check, resolved from the scope")
    func scopeSuppliedKeys() async throws {
        let root = try await makeInjector { binder in
            binder.bind(RequestID.self).suppliedByScope()
            binder.bind(AuditTrail.self).to(AuditTrail.init)
        }
        let trail = try await root.withScope(modules: [RequestModule(id: 7)]) { try await $0.get(AuditTrail.self) }
        #expect(trail.request == RequestID(value: 7))

        let outside = await injectionError { _ = try await root.get(AuditTrail.self) }
        #expect(outside?.code == .scopeViolation)
        #expect(outside?.path == [BindingKey(AuditTrail.self), BindingKey(RequestID.self)])
        #expect(outside?.message.contains("resolve it inside withScope") == true)

        let notSupplied = await injectionError {
            _ = try await root.withScope { try await $0.get(AuditTrail.self) }
        }
        #expect(notSupplied?.code == .missingBinding)
        #expect(notSupplied?.message.contains("declared as supplied by request scopes") == true)
        #expect(notSupplied?.path == [BindingKey(AuditTrail.self), BindingKey(RequestID.self)])

        // Asked for directly, an unsupplied value is simply absent in a scope, and out of place outside one.
        #expect(try await root.withScope { try await $0.getIfBound(RequestID.self) } == nil)
        #expect(
            try await root.withScope(modules: [RequestModule(id: 3)]) { try await $0.getIfBound(RequestID.self) }?.value
                == 3)
        let unscoped = await injectionError { _ = try await root.getIfBound(RequestID.self) }
        #expect(unscoped?.code == .scopeViolation)
    }

    @Test("a singleton that depends on a scope-supplied key is a captive dependency")
    func scopeSuppliedCaptive() async throws {
        let error = await injectionError {
            _ = try await makeInjector { binder in
                binder.bind(RequestID.self).suppliedByScope()
                binder.bind(RequestCache.self).to(RequestCache.init).asSingleton()
            }
        }
        #expect(error?.code == .scopeViolation)
        #expect(error?.problems.map(\.path) == [[BindingKey(RequestCache.self), BindingKey(RequestID.self)]])
    }

    @Test("without the declaration, a key only scopes supply is a missing binding at build")
    func undeclaredScopeKeyIsMissing() async throws {
        let error = await injectionError {
            _ = try await makeInjector { $0.bind(AuditTrail.self).to(AuditTrail.init) }
        }
        #expect(error?.problems.map(\.code) == [.missingBinding])
    }

    @Test("suppliedByScope on a PropertyInjectable type does not check the properties of a value it never builds")
    func suppliedByScopePropertyInjectableFalseMissing() async throws {
        // The placeholder never builds a WiredSession (the request binds one with toInstance, which
        // injects nothing), but setTarget records WiredSession's injected properties on it.
        let root = try await makeInjector { $0.bind(WiredSession.self).suppliedByScope() }
        let session = WiredSession()
        let got = try await root.withScope(modules: [TestModule { $0.bind(WiredSession.self).toInstance(session) }]) {
            try await $0.get(WiredSession.self)
        }
        #expect(got === session)
    }
}
