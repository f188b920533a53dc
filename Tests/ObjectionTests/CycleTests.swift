import Testing

@testable import Objection

@Suite("Cycles never hang", .hangLimit)
struct CycleTests {
    @Test("A -> B -> A is reported with the chain, in either scope", arguments: [Scope.transient, .singleton])
    func twoKeyCycle(scope: Scope) async throws {
        let injector = try await makeInjector { binder in
            binder.bind(NodeA.self).to { r in
                _ = try await r.get(NodeB.self); return NodeA()
            }.inScope(scope)
            binder.bind(NodeB.self).to { r in
                _ = try await r.get(NodeA.self); return NodeB()
            }.inScope(scope)
        }
        let error = await injectionError { _ = try await injector.get(NodeA.self) }
        #expect(error?.code == .circularDependency)
        #expect(error?.description == "Circular dependency: NodeA -> NodeB -> NodeA")
        #expect(error?.path == [BindingKey(NodeA.self), BindingKey(NodeB.self), BindingKey(NodeA.self)])
    }

    @Test("a type that depends on itself is a cycle")
    func selfDependency() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(NodeA.self).to { r in try await r.get(NodeA.self) }.asSingleton()
        }
        let error = await injectionError { _ = try await injector.get(NodeA.self) }
        #expect(error?.description == "Circular dependency: NodeA -> NodeA")
    }

    @Test("a cycle through several keys names every key, starting where it closes")
    func longCycle() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(NodeA.self).to { r in
                _ = try await r.get(NodeB.self); return NodeA()
            }
            binder.bind(NodeB.self).to { r in
                _ = try await r.get(NodeC.self); return NodeB()
            }.asSingleton()
            binder.bind(NodeC.self).to { r in
                _ = try await r.get(NodeD.self); return NodeC()
            }
            binder.bind(NodeD.self).to { r in
                _ = try await r.get(NodeB.self); return NodeD()
            }
        }
        let error = await injectionError { _ = try await injector.get(NodeA.self) }
        #expect(error?.description == "Circular dependency: NodeB -> NodeC -> NodeD -> NodeB")
        #expect(error?.path.first == BindingKey(NodeA.self))
    }

    @Test("autowired initializers that need each other are a cycle, reported when the injector is built")
    func autowiredCycle() async throws {
        let error = await injectionError {
            _ = try await makeInjector { binder in
                binder.bind(Chicken.self).to(Chicken.init)
                binder.bind(Egg.self).to(Egg.init)
            }
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.problems.map(\.description) == ["Circular dependency: Chicken -> Egg -> Chicken"])
        #expect(error?.problems.first?.code == .circularDependency)
    }

    @Test("a cycle half declared and half inside a closure is found when it runs")
    func mixedCycle() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(Chicken.self).to(Chicken.init)
            binder.bind(Egg.self).to { r in try await Egg(chicken: r.get(Chicken.self)) }
        }
        let error = await injectionError { _ = try await injector.get(Egg.self) }
        #expect(error?.description == "Circular dependency: Egg -> Chicken -> Egg")
    }

    @Test("a diamond is not a cycle")
    func diamond() async throws {
        struct Top: Sendable {}
        let injector = try await makeInjector { binder in
            binder.bind(NodeD.self).to(NodeD.init)
            binder.bind(NodeB.self).to { r in
                _ = try await r.get(NodeD.self); return NodeB()
            }
            binder.bind(NodeC.self).to { r in
                _ = try await r.get(NodeD.self); return NodeC()
            }.asSingleton()
            binder.bind(NodeA.self).to { r in
                async let b = r.get(NodeB.self)
                async let c = r.get(NodeC.self)
                _ = try await (b, c)
                return NodeA()
            }
        }
        _ = try await injector.get(NodeA.self)
    }

    @Test("a cycle through async let in a provider is detected", arguments: [Scope.transient, .singleton])
    func cycleThroughAsyncLet(scope: Scope) async throws {
        let injector = try await makeInjector { binder in
            binder.bind(NodeA.self).to { r in
                async let b = r.get(NodeB.self)
                _ = try await b
                return NodeA()
            }.inScope(scope)
            binder.bind(NodeB.self).to { r in
                _ = try await r.get(NodeA.self); return NodeB()
            }.inScope(scope)
        }
        let error = await injectionError { _ = try await injector.get(NodeA.self) }
        #expect(error?.description == "Circular dependency: NodeA -> NodeB -> NodeA")
    }

    @Test("a cycle through a task group in a provider is detected", arguments: [Scope.transient, .singleton])
    func cycleThroughTaskGroup(scope: Scope) async throws {
        let injector = try await makeInjector { binder in
            binder.bind(NodeA.self).to { r in
                try await withThrowingTaskGroup(of: NodeB.self) { group in
                    group.addTask { try await r.get(NodeB.self) }
                    try await group.waitForAll()
                }
                return NodeA()
            }.inScope(scope)
            binder.bind(NodeB.self).to { r in
                _ = try await r.get(NodeA.self); return NodeB()
            }.inScope(scope)
        }
        let error = await injectionError { _ = try await injector.get(NodeA.self) }
        #expect(error?.code == .circularDependency)
    }

    @Test(
        "a cycle through providers that call the injector directly is detected",
        arguments: [Scope.transient, .singleton]
    )
    func cycleThroughCapturedInjector(scope: Scope) async throws {
        let box = InjectorBox()
        box.injector = try await makeInjector { binder in
            binder.bind(NodeA.self).to { _ in
                async let b = box.get(NodeB.self)
                _ = try await b
                return NodeA()
            }.inScope(scope)
            binder.bind(NodeB.self).to { _ in
                _ = try await box.get(NodeA.self); return NodeB()
            }.inScope(scope)
        }
        let error = await injectionError { _ = try await box.get(NodeA.self) }
        #expect(error?.description == "Circular dependency: NodeA -> NodeB -> NodeA")
        box.injector = nil
    }

    @Test(
        "a cycle split across two tasks ends in an error for both, not a deadlock, naming every key of it",
        arguments: [false, true])
    func crossTaskCycle(throughTransient: Bool) async throws {
        // Task 1 builds A, whose provider needs B; task 2 builds B, whose provider needs A (or C,
        // a transient, which needs A: a step with no construction of its own, named all the
        // same). Each provider waits until the other has started, so both are in flight.
        let aStarted = Gate()
        let bStarted = Gate()
        let injector = try await makeInjector { binder in
            binder.bind(NodeA.self).to { r in
                aStarted.open()
                await bStarted.wait()
                _ = try await r.get(NodeB.self)
                return NodeA()
            }.asSingleton()
            binder.bind(NodeB.self).to { r in
                bStarted.open()
                await aStarted.wait()
                if throughTransient { _ = try await r.get(NodeC.self) } else { _ = try await r.get(NodeA.self) }
                return NodeB()
            }.asSingleton()
            binder.bind(NodeC.self).to { r in
                _ = try await r.get(NodeA.self)
                return NodeC()
            }
        }
        // Without the waits-for graph the two would wait for each other forever: the deadline turns
        // that into a failure instead of a hung run.
        let results = try await withDeadline {
            async let a = outcome { try await injector.get(NodeA.self) }
            async let b = outcome { try await injector.get(NodeB.self) }
            return [await a.map { $0 as any Sendable }, await b.map { $0 as any Sendable }]
        }
        for result in results {
            #expect(throws: InjectionError.self) { try result.get() }
            if case .failure(let error as InjectionError) = result {
                #expect(error.code == .circularDependency)
                let cycle = throughTransient ? ["NodeA", "NodeB", "NodeC"] : ["NodeA", "NodeB"]
                // Either task's error names the whole cycle, from the key its own path began at.
                let namings = cycle.indices.map { start in
                    let keys = cycle[start...] + cycle[..<start]
                    return "Circular dependency: " + (keys + [keys.first ?? ""]).joined(separator: " -> ")
                }
                #expect(namings.contains(error.message), "\(error.message)")
                // Its path ends with the key that closes the cycle.
                #expect(error.path.first == error.path.last)
            }
        }
    }

    @Test("after a cycle error the injector works normally")
    func worksAfterCycle() async throws {
        let breakCycle = Counter()
        let injector = try await makeInjector { binder in
            binder.bind(NodeA.self).to { r in
                if breakCycle.value == 0 { _ = try await r.get(NodeB.self) }
                return NodeA()
            }.asSingleton()
            binder.bind(NodeB.self).to { r in
                _ = try await r.get(NodeA.self); return NodeB()
            }.asSingleton()
            binder.bind(Engine.self).to(Engine.init)
        }
        let error = await injectionError { _ = try await injector.get(NodeB.self) }
        #expect(error?.code == .circularDependency)
        _ = try await injector.get(Engine.self)
        breakCycle.increment()
        let a = try await injector.get(NodeA.self)
        #expect(a === (try await injector.get(NodeA.self)))
        _ = try await injector.get(NodeB.self)
    }
}
