import ObjectionTesting
import Testing

@testable import Objection

/// A property-injected object that needs another of its own type: a cycle through property injection.
final class SelfNeedy: PropertyInjectable, @unchecked Sendable {
    var other: SelfNeedy?
    init() {}
    static var injectedProperties: [InjectedProperty] { [.property(\SelfNeedy.other)] }
}

/// A provider of `NodeA` that asks for `NodeB`: one half of a cycle through a ``Provider``.
struct LoopProvider: Provider {
    func provide(_ resolver: Resolver) async throws -> NodeA {
        _ = try await resolver.get(NodeB.self)
        return NodeA()
    }
}

/// An object whose `awakeFromInjection()` asks the injector in `box` for itself: a cycle through the awake hook.
final class Awakener: PropertyInjectable, @unchecked Sendable {
    static let box = InjectorBox()
    var engine: Engine?
    init() {}
    static var injectedProperties: [InjectedProperty] { [.property(\Awakener.engine)] }
    func awakeFromInjection() async throws { _ = try await Self.box.get(Awakener.self) }
}

/// Cycles through every handle, a child injector, an awake hook, a decorator, a detached task and
/// runtime arguments: each ends in an error, never a hang.
extension CycleTests {
    enum CycleRoute: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case direct, provider, factory, objectFactory, lazy, propertyInjection, scoped, injectorInsideProvider
        var testDescription: String { rawValue }
    }

    @Test(
        "a cycle through every handle ends in circularDependency naming the chain, and the injector carries on",
        arguments: CycleRoute.allCases, [ObserverKind.successes, .combinedMixed, .failuresOnly])
    func cycleThroughEveryHandle(route: CycleRoute, kind: ObserverKind) async throws {
        let (observer, strict) = kind.make()
        let box = InjectorBox()
        // The injector's bindings hold the box: let go of the injector at the end, or both leak.
        defer { box.injector = nil }
        let module = TestModule { b in
            b.bind(Wheel.self).to(Wheel.init).asSingleton()
            switch route {
            case .direct:
                b.bind(NodeA.self).to { r in
                    _ = try await r.get(NodeB.self); return NodeA()
                }.asSingleton()
                b.bind(NodeB.self).to { r in
                    _ = try await r.get(NodeA.self); return NodeB()
                }.asSingleton()
            case .provider:
                b.bind(NodeA.self).to(provider: LoopProvider()).asSingleton()
                b.bind(NodeB.self).to { r in
                    _ = try await r.get(NodeA.self); return NodeB()
                }
            case .factory:
                b.bind(NodeA.self).to { r in
                    _ = try await r.get(Factory<NodeB>.self)(); return NodeA()
                }.asSingleton()
                b.bind(NodeB.self).to { r in
                    _ = try await r.get(Factory<NodeA>.self)(); return NodeB()
                }.asSingleton()
            case .objectFactory:
                b.bind(NodeA.self).to { r in
                    _ = try await r.get(ObjectFactory.self).get(NodeB.self); return NodeA()
                }
                .asSingleton()
                b.bind(NodeB.self).to { r in
                    _ = try await r.get(ObjectFactory.self).get(NodeA.self); return NodeB()
                }
            case .lazy:
                b.bind(NodeA.self).to { r in
                    _ = try await r.get(Lazy<NodeB>.self).value; return NodeA()
                }.asSingleton()
                b.bind(NodeB.self).to { r in
                    _ = try await r.get(Lazy<NodeA>.self).value; return NodeB()
                }
            case .propertyInjection:
                b.bind(SelfNeedy.self).to { r in
                    let object = SelfNeedy()
                    try await box.injector?.injectDependencies(into: object)
                    return object
                }.asSingleton()
                b.bind(NodeA.self).to { r in
                    _ = try await r.get(SelfNeedy.self); return NodeA()
                }
            case .scoped:
                b.bind(NodeA.self).to { r in
                    _ = try await r.get(NodeB.self); return NodeA()
                }.inScope(.scoped)
                b.bind(NodeB.self).to { r in
                    _ = try await r.get(NodeC.self); return NodeB()
                }.inScope(.scoped)
                b.bind(NodeC.self).to { r in
                    _ = try await r.get(NodeA.self); return NodeC()
                }.inScope(.scoped)
            case .injectorInsideProvider:
                // The provider calls the injector itself, not its resolver.
                b.bind(NodeA.self).to { _ in
                    _ = try await box.get(NodeB.self); return NodeA()
                }.asSingleton()
                b.bind(NodeB.self).to { _ in
                    _ = try await box.get(NodeA.self); return NodeB()
                }.asSingleton()
            }
        }
        let injector = try await InjectorActor(modules: [module], observer: observer)
        box.injector = injector
        let error = try await withDeadline {
            await injectionError {
                if route == .scoped {
                    try await injector.withScope(values: { _ in }) { _ = try await $0.get(NodeA.self) }
                } else {
                    _ = try await injector.get(NodeA.self)
                }
            }
        }
        #expect(error?.code == .circularDependency, "\(String(describing: error))")
        if let error {
            #expect(error.message.contains(" -> "), "\(error.message)")
            #expect(!error.path.isEmpty)
        }
        // It works normally afterwards.
        _ = try await injector.get(Wheel.self)
        // And again: the failure was not cached as something else.
        let again = try await withDeadline {
            await injectionError {
                if route == .scoped {
                    try await injector.withScope(values: { _ in }) { _ = try await $0.get(NodeA.self) }
                } else {
                    _ = try await injector.get(NodeA.self)
                }
            }
        }
        #expect(again?.code == .circularDependency)
        for o in strict {
            #expect(o.finalProblems() == [])
            #expect(o.recorded.resolutionFailures.count >= 2)
        }
    }

    @Test("a cycle closed through a child injector's override ends in an error, not a hang")
    func cycleThroughChild() async throws {
        let observer = StrictObserver()
        let childBox = InjectorBox()
        // The injector's bindings hold the box: let go of the injector at the end, or both leak.
        defer { childBox.injector = nil }
        let root = try await InjectorActor(
            modules: [
                TestModule { b in
                    // Built by the root, but asks the child (directly) for B, which needs A again.
                    b.bind(NodeA.self).to { _ in
                        _ = try await childBox.get(NodeB.self); return NodeA()
                    }.asSingleton()
                    b.bind(NodeB.self).to(NodeB.init)
                }
            ],
            observer: observer
        )
        let child = try await root.child(modules: [
            TestModule { b in
                b.bind(NodeB.self).to { r in
                    _ = try await r.get(NodeA.self); return NodeB()
                }.asSingleton()
            }
        ])
        childBox.injector = child
        let error = try await withDeadline { await injectionError { _ = try await child.get(NodeA.self) } }
        #expect(error?.code == .circularDependency, "\(String(describing: error))")
        let error2 = try await withDeadline { await injectionError { _ = try await child.get(NodeB.self) } }
        #expect(error2?.code == .circularDependency, "\(String(describing: error2))")
        #expect(observer.finalProblems() == [])
    }

    @Test("awakeFromInjection asking for its own singleton is a cycle error, not a hang")
    func awakeAsksForItself() async throws {
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(Engine.self).to(Engine.init)
                    b.bind(Awakener.self).to(Awakener.init).asSingleton()
                }
            ],
            observer: StrictObserver()
        )
        Awakener.box.injector = injector
        let error = try await withDeadline { await injectionError { _ = try await injector.get(Awakener.self) } }
        #expect(error?.code == .circularDependency)
    }

    @Test("a decorator asking the injector for the key it decorates is a cycle error, not a hang")
    func decoratorAsksForItself() async throws {
        let box = InjectorBox()
        // The injector's bindings hold the box: let go of the injector at the end, or both leak.
        defer { box.injector = nil }
        let injector = try await makeInjector { b in
            b.bind(Engine.self).to(Engine.init).asSingleton()
            b.decorate(Engine.self) { _, engine in
                _ = try await box.get(Engine.self)
                return engine
            }
        }
        box.injector = injector
        let error = try await withDeadline { await injectionError { _ = try await injector.get(Engine.self) } }
        #expect(error?.code == .circularDependency)
    }

    @Test("a provider awaiting a detached task that resolves its own key through the resolver: cycle error")
    func detachedTaskThroughResolver() async throws {
        let injector = try await InjectorActor(
            modules: [
                TestModule { b in
                    b.bind(NodeA.self).to { r in
                        try await Task.detached { _ = try await r.get(NodeA.self) }.value
                        return NodeA()
                    }.asSingleton()
                }
            ],
            observer: StrictObserver()
        )
        let error = try await withDeadline { await injectionError { _ = try await injector.get(NodeA.self) } }
        #expect(error?.code == .circularDependency)
    }

    @Test(
        "a scoped provider awaiting InjectorActor.detachedTask that resolves its own key from the current injector: cycle error"
    )
    func detachedTaskThroughCurrent() async throws {
        let root = try await makeInjector { b in
            b.bind(NodeA.self).to { _ in
                try await InjectorActor.detachedTask {
                    _ = try await InjectorActor.current?.get(NodeA.self)
                }.value
                return NodeA()
            }.inScope(.scoped)
        }
        let error = try await withDeadline(seconds: 60) {
            await injectionError { try await root.withScope { _ = try await $0.get(NodeA.self) } }
        }
        #expect(error?.code == .circularDependency)
    }

    @Test("recursion through runtime arguments is a cycle, not a crash")
    func recursionThroughArguments() async throws {
        struct Countdown: Sendable {
            let remaining: Int
        }
        let injector = try await makeInjector { binder in
            binder.bind(Countdown.self).to(arguments: Int.self) { r, remaining in
                remaining == 0
                    ? Countdown(remaining: 0) : try await r.get(Countdown.self, arguments: remaining - 1)
            }
        }
        let error = await injectionError { _ = try await injector.get(Countdown.self, arguments: 3) }
        #expect(error?.code == .circularDependency)
    }

    @Test("recursion through runtime arguments asked of the injector itself is a cycle naming the chain")
    func recursionThroughArgumentsViaInjector() async throws {
        struct Countdown: Sendable {
            let remaining: Int
        }
        let injector = try await makeInjector { binder in
            binder.bind(Countdown.self).to(arguments: Int.self) { r, remaining in
                // No base case: without the cycle check, this recursion would never end.
                try await r.injector.get(Countdown.self, arguments: remaining + 1)
            }
        }
        let error = try await withDeadline {
            await injectionError { _ = try await injector.get(Countdown.self, arguments: 3) }
        }
        #expect(error?.code == .circularDependency)
        #expect(error?.message.contains("Countdown -> Countdown") == true)
    }
}
