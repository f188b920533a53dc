import Testing

@testable import Objection

@Suite("Runtime arguments through aliases")
struct AliasedRuntimeArgumentTests {
    @Test("an alias forwards runtime arguments to its target")
    func aliasForwardsArguments() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(ArgumentCar.self)
                .to(arguments: String.self, String.self) { _, make, model in ArgumentCar(make: make, model: model) }
            binder.bind((any Configurable).self).to(ArgumentCar.self)
        }
        let car = try await injector.get((any Configurable).self, arguments: "VW", "Passat")
        #expect(car.make == "VW")
        #expect(car.model == "Passat")
    }

    @Test("a wrong argument through an alias is reported, naming the types")
    func aliasArgumentMismatch() async throws {
        let injector = try await makeInjector { binder in
            binder.bind(ArgumentCar.self)
                .to(arguments: String.self, String.self) { _, make, model in ArgumentCar(make: make, model: model) }
            binder.bind((any Configurable).self).to(ArgumentCar.self)
        }
        let error = await injectionError { _ = try await injector.get((any Configurable).self, arguments: 7) }
        #expect(error?.code == .argumentMismatch)
        #expect(error?.message.contains("(String, String)") == true)
    }

    @Test(
        "a cached alias on a chain is checked in its owner's view: a child's override of the chain's end does not reach it"
    )
    func cachedAliasCheckedInItsOwner() async throws {
        let root = try await makeInjector { binder in
            binder.bind(Int.self, named: "a").to(Int.self, named: "b").asSingleton()
            binder.bind(Int.self, named: "b").to(Int.self, named: "c").asSingleton()
            binder.bind(Int.self, named: "c").to(arguments: String.self) { _, text in text.count }
        }
        let child = try await root.child(modules: [
            TestModule { $0.bind(Int.self, named: "c").to(arguments: Int.self) { _, number in number } }
        ])
        #expect(try await root.get(Int.self, named: "b", arguments: "four") == 4)
        // In the child's view the chain ends at its Int-taking "c"; "a" and "b" are the root's
        // singletons, and "b"'s chain, in the root, ends at the String-taking "c".
        let error = await injectionError { _ = try await child.get(Int.self, named: "a", arguments: 5) }
        #expect(error?.code == .argumentMismatch)
    }
}
