import Testing

@testable import Objection

@Suite("The graph as a picture")
struct GraphTests {
    /// Needs only handles and a just-in-time type: nothing it needs is missing.
    final class UsesHandles: Sendable {
        init(engines: Factory<Engine>, wheel: Lazy<Wheel>, clock: InjectableClock) {}
    }

    @Test("DOT and Mermaid show scopes, dependencies, missing keys and cycles")
    func export() async throws {
        // A configuration the injector rejects can still be drawn, to see why.
        let modules = [
            TestModule { binder in
                binder.bind(Engine.self).to(Engine.init).asSingleton()
                binder.bind(Car.self).to(Car.init)
                binder.bind(Chicken.self).to(Chicken.init)
                binder.bind(Egg.self).to(Egg.init)
            }
        ]
        let dot = try InjectorActor.graph(of: modules, .dot)
        #expect(dot.hasPrefix("digraph Objection {"))
        #expect(dot.contains("label=\"Engine\\nsingleton\""))
        #expect(dot.contains("label=\"Wheel\\nmissing\", color=red, style=dashed"))
        #expect(dot.contains("[color=red, penwidth=2]"))
        let mermaid = try InjectorActor.graph(of: modules, .mermaid)
        #expect(mermaid.hasPrefix("graph TD"))
        #expect(mermaid.contains("[\"Car<br/>transient\"]"))
        #expect(mermaid.contains("-.->"))
        #expect(mermaid.contains("linkStyle"))
    }

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
}
