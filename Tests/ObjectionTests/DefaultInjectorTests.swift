import Testing

@testable import Objection

/// Serialized because the process default is one value for the whole process; each test puts
/// back the default it found, and no other suite sets it.
@Suite("The process default injector", .serialized)
struct DefaultInjectorTests {
    @Test("the process default is the fallback of current, and task-locals win over it")
    func processDefault() async throws {
        let root = try await CurrentInjectorTests.injector("default")
        let previous = InjectorActor.setDefault(root)
        defer { InjectorActor.setDefault(previous) }
        #expect(InjectorActor.current === root)
        #expect(try await InjectorActor.current?.get(Config.self) == Config(dsn: "default"))
        let other = try await CurrentInjectorTests.injector("other")
        await InjectorActor.withCurrent(other) { #expect(InjectorActor.current === other) }
        #expect(InjectorActor.current === root)
    }

    @Test("setDefault replaces the default, returns the one it replaced, and nil clears it")
    func replaceAndClear() async throws {
        let first = try await CurrentInjectorTests.injector("first")
        let second = try await CurrentInjectorTests.injector("second")
        let previous = InjectorActor.setDefault(nil)
        defer { InjectorActor.setDefault(previous) }
        #expect(InjectorActor.current == nil)

        #expect(InjectorActor.setDefault(first) == nil)
        #expect(InjectorActor.current === first)
        #expect(InjectorActor.setDefault(first) === first)
        #expect(InjectorActor.current === first)

        #expect(InjectorActor.setDefault(second) === first)
        #expect(InjectorActor.current === second)
        #expect(try await InjectorActor.current?.get(Config.self) == Config(dsn: "second"))
        // The replaced injector is not shut down; it still resolves.
        #expect(try await first.get(Config.self) == Config(dsn: "first"))
        // A task-local binding still wins over the new default.
        await InjectorActor.withCurrent(first) { #expect(InjectorActor.current === first) }

        #expect(InjectorActor.setDefault(nil) === second)
        #expect(InjectorActor.current == nil)
    }

    @Test("currentScope is the request's scope inside withScope, and nil outside it, whatever the default")
    func currentScope() async throws {
        let root = try await makeInjector { $0.bind(Engine.self).to(Engine.init) }
        #expect(InjectorActor.currentScope == nil)
        try await InjectorActor.withCurrent(root) {
            #expect(InjectorActor.current === root)
            #expect(InjectorActor.currentScope == nil)
            try await root.withScope { scope in
                #expect(InjectorActor.currentScope === scope)
                let child = try await scope.child(modules: [])
                await InjectorActor.withCurrent(child) {
                    // A child of the scope still serves the same request.
                    #expect(InjectorActor.currentScope === scope)
                }
            }
        }
    }
}
